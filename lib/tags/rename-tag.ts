import type { z } from "zod";
import { db } from "@/lib/db/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import { notFound } from "@/lib/http/errors.ts";
import { renameTagOnNotes } from "@/lib/notes/store/note-labels.ts";
import { listTags } from "@/lib/tags/list-tags.ts";
import { tagKey } from "@/lib/tags/normalize-tag.ts";
import type { RenameTagInput, RenameTagResult } from "@/lib/tags/schemas.ts";
import { lockTags, tagSpellings } from "@/lib/tags/user-tags.ts";

/**
 * Renames a tag on every note that carries it; into a tag the person already has (case aside),
 * the two merge. A note that carried both keeps one, where the first of them was.
 */
export async function renameTag({ userId, input }: { userId: string; input: z.output<typeof RenameTagInput> }): Promise<z.output<typeof RenameTagResult>> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockTags(tx, userId);
    const spellings = await tagSpellings(tx, userId);
    const from = spellings.get(tagKey(input.from));
    if (from === undefined) throw notFound(`The tag “${input.from}”`);
    const existing = spellings.get(tagKey(input.to));
    const merged = existing !== undefined && existing !== from;
    const to = merged ? existing : input.to;
    if (to !== from) {
      await renameTagOnNotes(tx, { userId, from, to });
    }
    const [tag] = await listTags({ userId, only: to, tx });
    return { tag: tag ?? { name: to, notes: 0 }, merged };
  }, TRANSACTION_OPTIONS);
}
