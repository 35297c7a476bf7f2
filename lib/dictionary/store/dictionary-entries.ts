import { db } from "@/lib/db/client.ts";
import type { DictionaryEntry, Prisma } from "@/lib/db/generated/client.ts";
import type { Db } from "@/lib/db/types.ts";

// The dictionary's store (lib/dictionary/store): every query and write of the dictionary's table
// (dictionary_entries) goes through this file, and no other file names the table
// (tests/unit/layering.test.ts). Every read is of one person's entries.

const client = async (tx?: Db): Promise<Db> => tx ?? (await db());

/** All entries of a person, as the matcher needs them, in match-key order (used by recognition and clean-up). */
export async function loadDictionary(userId: string) {
  return (await client()).dictionaryEntry.findMany({
    where: { userId },
    orderBy: { matchKey: "asc" },
    select: { misspelling: true, correctSpelling: true },
  });
}

/** A page of the person's entries in match-key order, after the key `afterKey`. */
export async function listDictionaryEntries({ userId, afterKey, take }: { userId: string; afterKey?: string; take?: number }) {
  return (await client()).dictionaryEntry.findMany({
    where: { userId, ...(afterKey && { matchKey: { gt: afterKey } }) },
    orderBy: { matchKey: "asc" },
    take,
    // Only what the answer and the cursor need (not the ids).
    select: { misspelling: true, correctSpelling: true, matchKey: true, createdAt: true, updatedAt: true },
  });
}

/** The person's entries (misspelling and spelling) in the order the database keeps them. */
export async function listDictionaryTerms({ userId }: { userId: string }) {
  return (await client()).dictionaryEntry.findMany({ where: { userId }, select: { misspelling: true, correctSpelling: true } });
}

/** The spellings the person taught (at most `take` of them, when given). */
export async function listDictionarySpellings({ userId, take }: { userId: string; take?: number }) {
  return (await client()).dictionaryEntry.findMany({ where: { userId }, select: { correctSpelling: true }, ...(take !== undefined && { take }) });
}

/** The match keys of the person's entries. */
export async function listDictionaryMatchKeys({ userId, tx }: { userId: string; tx?: Db }) {
  return (await client(tx)).dictionaryEntry.findMany({ where: { userId }, select: { matchKey: true } });
}

/** The person's entries in id order (uuid v7: creation order), `take` after the entry `after`. */
export async function dictionaryEntriesInIdOrder({ userId, after, take }: { userId: string; after?: string; take: number }) {
  return (await client()).dictionaryEntry.findMany({
    where: { userId },
    take,
    orderBy: { id: "asc" },
    ...(after && { cursor: { id: after }, skip: 1 }),
    select: { id: true, misspelling: true, correctSpelling: true },
  });
}

/** The person's entry with this match key; null when there is none. */
export async function findDictionaryEntry({ userId, matchKey, tx }: { userId: string; matchKey: string; tx?: Db }): Promise<DictionaryEntry | null> {
  return (await client(tx)).dictionaryEntry.findUnique({ where: { userId_matchKey: { userId, matchKey } } });
}

/** How many entries the person has. */
export async function countDictionaryEntries({ userId, tx }: { userId: string; tx?: Db }): Promise<number> {
  return (await client(tx)).dictionaryEntry.count({ where: { userId } });
}

/** A new entry. */
export async function createDictionaryEntry(data: Prisma.DictionaryEntryUncheckedCreateInput, tx?: Db): Promise<DictionaryEntry> {
  return (await client(tx)).dictionaryEntry.create({ data });
}

/** Changes one entry, by id (the caller found it as the person's). */
export async function updateDictionaryEntry(tx: Db, id: string, data: Prisma.DictionaryEntryUncheckedUpdateInput): Promise<DictionaryEntry> {
  return tx.dictionaryEntry.update({ where: { id }, data });
}

/** Deletes one entry, by id; how many were deleted (0: gone already). */
export async function deleteDictionaryEntry(id: string): Promise<number> {
  return (await (await client()).dictionaryEntry.deleteMany({ where: { id } })).count;
}
