import { Prisma } from "@/lib/db/generated/client.ts";
import type { Db } from "@/lib/db/types.ts";
import { client } from "@/lib/notes/store/owned-note.ts";

// The note's tags and pin, as stored (lib/tags decides their spelling and locks). Every part of a
// recording in parts carries the same ones. Neither moves updated_at, which guards the text.

/** Sets the tags (null: unchanged) and pin (null: unchanged) of the note and of every part of its recording. */
export async function setLabels(
  tx: Db,
  { userId, id, recordingId, tags, pinned }: { userId: string; id: string; recordingId: string | null; tags: string[] | null; pinned: boolean | null },
): Promise<void> {
  await tx.$executeRaw`
    UPDATE transcriptions
    SET tags = coalesce(${tags}::text[], tags), pinned = coalesce(${pinned}::boolean, pinned)
    WHERE user_id = ${userId} AND (id = ${id} OR recording_id = ${recordingId})`;
}

/** The tags and pin of a recording's first part, if it has one yet. */
export async function labelsOfFirstPart({ userId, recordingId }: { userId: string; recordingId: string }): Promise<{ tags: string[]; pinned: boolean } | null> {
  return (await client()).note.findFirst({
    where: { userId, recordingId },
    orderBy: [{ recordingPart: "asc" }, { createdAt: "asc" }],
    select: { tags: true, pinned: true },
  });
}

/** The person's tags with how many notes carry each (a recording in parts is one note), most used first; `only`: that tag. */
export async function tagCounts({ userId, only, tx }: { userId: string; only?: string; tx?: Db }): Promise<{ name: string; notes: number }[]> {
  const prisma = await client(tx);
  const one = only === undefined ? Prisma.empty : Prisma.sql`AND t.tags @> ARRAY[${only}]::text[] AND tag = ${only}`;
  const rows = await prisma.$queryRaw<{ name: string; notes: bigint | number }[]>`
    SELECT tag AS name, count(DISTINCT coalesce('r:' || t.recording_id, t.id)) AS notes
    FROM transcriptions t, unnest(t.tags) AS tag
    WHERE t.user_id = ${userId} AND t.tags <> '{}' ${one}
    GROUP BY tag
    ORDER BY notes DESC, lower(tag), tag`;
  return rows.map((row) => ({ name: row.name, notes: Number(row.notes) }));
}

/** Every spelling of a tag on the person's notes, sorted; `except`: a note (and its recording's parts) left out. */
export async function tagsInUse(tx: Db, userId: string, except?: { id: string; recordingId: string | null }): Promise<string[]> {
  const others = except
    ? Prisma.sql`AND t.id <> ${except.id} AND (t.recording_id IS NULL OR t.recording_id IS DISTINCT FROM ${except.recordingId})`
    : Prisma.empty;
  const rows = await tx.$queryRaw<{ tag: string }[]>`
    SELECT DISTINCT tag FROM transcriptions t, unnest(t.tags) AS tag
    WHERE t.user_id = ${userId} AND t.tags <> '{}' ${others}
    ORDER BY tag`;
  return rows.map((row) => row.tag);
}

/** Renames a tag on every note carrying it; repeats dropped keeping each tag's first place. */
export async function renameTagOnNotes(tx: Db, { userId, from, to }: { userId: string; from: string; to: string }): Promise<void> {
  // array_replace, then repeats dropped keeping each tag's first place.
  await tx.$executeRaw`
    UPDATE transcriptions t
    SET tags = (
      SELECT array_agg(tag ORDER BY first) FROM (
        SELECT tag, min(i) AS first FROM unnest(array_replace(t.tags, ${from}, ${to})) WITH ORDINALITY AS u(tag, i) GROUP BY tag
      ) kept
    )
    WHERE t.user_id = ${userId} AND t.tags @> ARRAY[${from}]::text[]`;
}

/** Takes a tag off every note carrying it. */
export async function removeTagFromNotes(tx: Db, { userId, name }: { userId: string; name: string }): Promise<void> {
  await tx.$executeRaw`
    UPDATE transcriptions SET tags = array_remove(tags, ${name})
    WHERE user_id = ${userId} AND tags @> ARRAY[${name}]::text[]`;
}
