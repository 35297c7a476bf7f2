import { db } from "@/lib/db/client.ts";
import { tagKey } from "@/lib/tags/normalize-tag.ts";
import { tagSpellings } from "@/lib/tags/user-tags.ts";

/** Which tags a list keeps and which it leaves out, spelled as stored; `none`: a wanted tag nobody has (nothing matches). */
export type TagFilter = { tags: string[]; excluded: string[]; none: boolean };

/** The person's spelling of each asked-for tag (case aside). */
export async function resolveTagFilter({ userId, tags, excluded }: { userId: string; tags: string[]; excluded: string[] }): Promise<TagFilter | null> {
  if (!tags.length && !excluded.length) return null;
  const spellings = await tagSpellings(await db(), userId);
  const wanted = tags.map((tag) => spellings.get(tagKey(tag)));
  return {
    tags: [...new Set(wanted.filter((tag) => tag !== undefined))],
    excluded: [...new Set(excluded.map((tag) => spellings.get(tagKey(tag))).filter((tag) => tag !== undefined))],
    none: wanted.includes(undefined),
  };
}
