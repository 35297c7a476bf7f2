import type { z } from "zod";
import { db } from "@/lib/db/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import { notFound } from "@/lib/http/errors.ts";
import { removeTagFromNotes } from "@/lib/notes/store/note-labels.ts";
import { listTags } from "@/lib/tags/list-tags.ts";
import { tagKey } from "@/lib/tags/normalize-tag.ts";
import type { DeleteTagQuery, DeleteTagResult } from "@/lib/tags/schemas.ts";
import { lockTags, tagSpellings } from "@/lib/tags/user-tags.ts";

/** Takes a tag off every note that carries it (the notes stay). */
export async function deleteTag({ userId, input }: { userId: string; input: z.output<typeof DeleteTagQuery> }): Promise<z.output<typeof DeleteTagResult>> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockTags(tx, userId);
    const name = (await tagSpellings(tx, userId)).get(tagKey(input.name));
    if (name === undefined) throw notFound(`The tag “${input.name}”`);
    const [tag] = await listTags({ userId, only: name, tx });
    await removeTagFromNotes(tx, { userId, name });
    return { deleted: tag ?? { name, notes: 0 } };
  }, TRANSACTION_OPTIONS);
}
