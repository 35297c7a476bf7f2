import type { Db } from "@/lib/db/types.ts";
import { tagsInUse } from "@/lib/notes/store/note-labels.ts";
import { tagKey } from "@/lib/tags/normalize-tag.ts";

/**
 * Serialises a person's tag writes (a transaction-scoped advisory lock): two phones adding "Work"
 * and "work" at the same moment must not keep both spellings.
 */
export async function lockTags(tx: Db, userId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`voicedraft-tags:${userId}`}))`;
}

/**
 * The person's tags as they spell them (key → spelling), read from their notes; `except`: a note
 * (with every part of its recording) whose own tags do not count, so a note's only use of a tag
 * can change its case.
 */
export async function tagSpellings(tx: Db, userId: string, except?: { id: string; recordingId: string | null }): Promise<Map<string, string>> {
  const spellings = new Map<string, string>();
  for (const tag of await tagsInUse(tx, userId, except)) if (!spellings.has(tagKey(tag))) spellings.set(tagKey(tag), tag);
  return spellings;
}
