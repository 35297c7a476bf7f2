import type { z } from "zod";
import type { Db } from "@/lib/db/types.ts";
import { tagCounts } from "@/lib/notes/store/note-labels.ts";
import type { Tag } from "@/lib/tags/schemas.ts";

/**
 * The person's tags with how many notes carry each (a recording in parts is one note), most used
 * first; `only`: just that tag (exact spelling), for an answer about one tag.
 */
export async function listTags({ userId, only, tx }: { userId: string; only?: string; tx?: Db }): Promise<z.output<typeof Tag>[]> {
  return tagCounts({ userId, only, tx });
}
