import { db } from "@/lib/db/client.ts";
import type { Prisma } from "@/lib/db/generated/client.ts";
import { errorFields, log } from "@/lib/log.ts";

// A recognizer that normalizes by the speaker's cepstral mean (PocketSphinx) starts each run from
// a value and settles on the speaker's own over the first seconds of speech: until then it hears
// badly ("and i got my eye" for "and so my fellow americans"). Each person's latest settled mean
// is kept, and their next recording, short upload or first live piece alike, starts from it.

/** Where this person's voice settled in their latest recognition; undefined before their first. */
export async function speakerMean(userId: string): Promise<number[] | undefined> {
  const prisma = await db();
  const profile = await prisma.speakerProfile.findUnique({ where: { userId }, select: { cepstralMean: true } });
  // As stored; the recognizer checks its shape (PocketSphinx: isCepstralMean) before using it.
  return profile?.cepstralMean as number[] | undefined;
}

/**
 * Keeps where the voice settled for the person's next recording. A failure is logged, not
 * thrown: the note it came with is already heard, and only the next one's first words would miss it.
 */
export async function rememberSpeakerMean(userId: string, mean: number[] | undefined): Promise<void> {
  if (!mean) return;
  try {
    const prisma = await db();
    const cepstralMean = mean as Prisma.InputJsonValue;
    await prisma.speakerProfile.upsert({ where: { userId }, create: { userId, cepstralMean }, update: { cepstralMean } });
  } catch (err) {
    log.warn("speaker profile: the cepstral mean was not kept", { user_id: userId, ...errorFields(err) });
  }
}
