import { randomBytes } from "node:crypto";
import { createUser } from "@/lib/accounts/create-user.ts";
import { createApiKey } from "@/lib/api-keys/create-api-key.ts";
import { SCOPES, type Scope } from "@/lib/api-keys/scopes.ts";

export type TestUser = { id: string; email: string; key: string };

/** A new user with one API key (all scopes unless given). */
export async function createTestUser(options: { scopes?: Scope[] } = {}): Promise<TestUser> {
  const email = `user-${randomBytes(6).toString("hex")}@example.test`;
  const user = await createUser({ input: { email, password: "correct horse battery staple" } });
  const { key } = await createApiKey({ userId: user.id, input: { name: "test", scopes: options.scopes ?? [...SCOPES] } });
  return { id: user.id, email, key };
}

/**
 * A stored note of `user` (as if recognized), with a completed local clean-up when `cleanText` is
 * given: for tests of what happens to notes, without recognizing audio.
 */
export async function createTestNote(user: { id: string }, text: string, cleanText: string | null = null, language = "en") {
  const { db } = await import("@/lib/db/client.ts");
  const prisma = await db();
  const optimization = cleanText
    ? await prisma.cleanUpWorkflow.create({
        data: {
          userId: user.id,
          requestHash: randomBytes(32).toString("hex"),
          name: "transcript-optimization",
          optimizer: "local",
          mode: "inline",
          status: "completed",
          callId: "call",
          chunksTotal: 1,
          chunksDone: 1,
          optimizedText: cleanText,
          language,
        },
      })
    : null;
  return prisma.note.create({
    data: {
      userId: user.id, text, rawText: text, language, durationSec: 4, engine: "test",
      audioSha256: "0".repeat(64), requestHash: randomBytes(32).toString("hex"), optimizationId: optimization?.id ?? null,
    },
  });
}

/**
 * A stored note of `user` spoken as `sentences` (each its text and start and end in seconds): a
 * segment a sentence, its words timed evenly across it, as a recognizer stores them.
 */
export async function createTimedNote(
  user: { id: string },
  sentences: [text: string, start: number, end: number][],
  options: { language?: string; title?: string; tags?: string[]; recordedAt?: Date } = {},
) {
  const { db } = await import("@/lib/db/client.ts");
  const prisma = await db();
  const segments = sentences.map(([text, start, end]) => {
    const tokens = text.split(/\s+/).filter(Boolean);
    const step = (end - start) / tokens.length;
    return { start, end, text, words: tokens.map((word, i) => ({ word, start: start + i * step, end: start + (i + 1) * step })) };
  });
  const text = sentences.map(([t]) => t).join(" ");
  return prisma.note.create({
    data: {
      userId: user.id, text, rawText: text, language: options.language ?? "en", durationSec: sentences.at(-1)?.[2] ?? 0, engine: "test", segments,
      audioSha256: "0".repeat(64), requestHash: randomBytes(32).toString("hex"), title: options.title ?? null, tags: options.tags ?? [],
      recordedAt: options.recordedAt ?? null,
    },
  });
}
