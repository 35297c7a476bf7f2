import { db } from "@/lib/db/client.ts";
import { notFound } from "@/lib/http/errors.ts";
import { matchKey } from "@/lib/dictionary/match-key.ts";
import { toDictionaryEntry, type DictionaryEntry } from "@/lib/dictionary/schemas.ts";

/** Deletes the entry whose misspelling has the same match key; a missing entry is a 404. */
export async function deleteEntry({ userId, input }: { userId: string; input: { misspelling: string } }): Promise<DictionaryEntry> {
  const prisma = await db();
  const where = { userId_matchKey: { userId, matchKey: matchKey(input.misspelling) } };
  const existing = await prisma.dictionaryEntry.findUnique({ where });
  if (!existing) throw notFound(`The dictionary entry "${input.misspelling}"`);
  const deleted = await prisma.dictionaryEntry.deleteMany({ where: { id: existing.id } });
  if (deleted.count === 0) throw notFound(`The dictionary entry "${input.misspelling}"`);
  return toDictionaryEntry(existing);
}
