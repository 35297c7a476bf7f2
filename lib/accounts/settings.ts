import type { z } from "zod";
import { db } from "@/lib/db/client.ts";
import { notFound } from "@/lib/http/errors.ts";
import type { Settings, UpdateSettingsInput } from "@/lib/accounts/schemas.ts";
import { audioUsage } from "@/lib/note-audio/audio-quota.ts";
import { recognizerLanguages } from "@/lib/transcription/recognizers/select-engine.ts";
import { ensureModelForLanguage } from "@/lib/transcription/recognizers/model-for-language.ts";

/** The person's settings, with what the recognizer can do for their language. */
export async function getSettings({ userId }: { userId: string }): Promise<Settings> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { language: true } });
  if (!user) throw notFound("The account");
  return present(userId, user.language);
}

/**
 * Changes the settings. A language the recognizer cannot do yet is kept (it is what the person
 * speaks) and said plainly; with the automatic model download, a multilingual model is fetched.
 */
export async function updateSettings({ userId, input }: { userId: string; input: z.output<typeof UpdateSettingsInput> }): Promise<Settings> {
  const prisma = await db();
  const language = input.language === "auto" ? null : input.language;
  await prisma.user.update({ where: { id: userId }, data: { language } });
  ensureModelForLanguage(language);
  return present(userId, language);
}

async function present(userId: string, language: string | null): Promise<Settings> {
  const [{ languages, hint }, audio] = await Promise.all([recognizerLanguages(), audioUsage({ userId })]);
  const supported = languages === "any" || language === null || languages.includes(language);
  return {
    language: language ?? "auto",
    recognizer: { languages, hint: languages === "any" ? null : hint, language_supported: supported },
    audio_storage: audio,
  };
}
