import { db } from "@/lib/db/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import { env } from "@/lib/env.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { countDictionaryEntries, createDictionaryEntry, findDictionaryEntry, updateDictionaryEntry } from "@/lib/dictionary/store/dictionary-entries.ts";
import { matchKey } from "@/lib/dictionary/match-key.ts";
import { toDictionaryEntry, type DictionaryEntry, type UpsertEntryInput } from "@/lib/dictionary/schemas.ts";

/** Adds an entry, or updates the one whose misspelling has the same match key. */
export async function upsertEntry({ userId, input }: { userId: string; input: UpsertEntryInput }): Promise<{
  entry: DictionaryEntry;
  created: boolean;
}> {
  const key = matchKey(input.misspelling);
  const limit = env().DICTIONARY_MAX_ENTRIES;
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    // Serialises one user's writes so the entry limit holds under concurrent adds.
    await tx.$executeRaw`SELECT 1 FROM "users" WHERE "id" = ${userId} FOR UPDATE`;
    const existing = await findDictionaryEntry({ userId, matchKey: key, tx });
    if (existing) {
      const entry = await updateDictionaryEntry(tx, existing.id, { misspelling: input.misspelling, correctSpelling: input.correct_spelling });
      return { entry: toDictionaryEntry(entry), created: false };
    }
    const count = await countDictionaryEntries({ userId, tx });
    if (count >= limit) {
      throw new ApiError(
        "dictionary_limit_reached",
        `Your dictionary already holds the maximum of ${limit} entries; delete some before adding more.`,
      );
    }
    const entry = await createDictionaryEntry({ userId, matchKey: key, misspelling: input.misspelling, correctSpelling: input.correct_spelling }, tx);
    return { entry: toDictionaryEntry(entry), created: true };
  }, TRANSACTION_OPTIONS);
}
