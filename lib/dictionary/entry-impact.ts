import { db } from "@/lib/db/client.ts";
import { isEverydayPhrase } from "@/lib/dictionary/common-words.ts";
import type { DictionaryImpact } from "@/lib/dictionary/schemas.ts";

/**
 * What an entry for `misspelling` would touch, asked before it is made: whether it is an everyday
 * word of the note's language ("my" → "Mighty" would rewrite every later note), and in how many of
 * the person's notes it occurs (the notes' search vectors, so counting is one index lookup).
 */
export async function entryImpact({ userId, input }: { userId: string; input: { misspelling: string; language?: string } }): Promise<DictionaryImpact> {
  const prisma = await db();
  const language = input.language ?? (await prisma.user.findUnique({ where: { id: userId }, select: { language: true } }))?.language ?? null;
  const [{ notes }] = await prisma.$queryRaw<{ notes: number }[]>`
    SELECT count(*)::int AS notes FROM transcriptions
    WHERE user_id = ${userId} AND search @@ phraseto_tsquery('simple', ${input.misspelling})`;
  return { misspelling: input.misspelling, everyday_word: isEverydayPhrase(input.misspelling, language), language, notes };
}
