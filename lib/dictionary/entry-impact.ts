import { db } from "@/lib/db/client.ts";
import { isCommonPhrase } from "@/lib/dictionary/common-phrase.ts";
import { notesHoldingPhrase } from "@/lib/notes/store/note-matches.ts";
import type { DictionaryImpact } from "@/lib/dictionary/schemas.ts";

/**
 * What an entry for `misspelling` would touch, asked before it is made: whether it is an everyday
 * or common word ("my" → "Mighty" would rewrite every later note; lib/dictionary/common-phrase.ts), and in how many of
 * the person's notes it occurs (the notes' search vectors, so counting is one index lookup).
 */
export async function entryImpact({ userId, input }: { userId: string; input: { misspelling: string; language?: string } }): Promise<DictionaryImpact> {
  const prisma = await db();
  const language = input.language ?? (await prisma.user.findUnique({ where: { id: userId }, select: { language: true } }))?.language ?? null;
  const notes = await notesHoldingPhrase({ userId, phrase: input.misspelling });
  return { misspelling: input.misspelling, everyday_word: isCommonPhrase(input.misspelling, language), language, notes };
}
