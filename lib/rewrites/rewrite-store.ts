import { db } from "@/lib/db/client.ts";
import type { NoteRewrite } from "@/lib/db/generated/client.ts";
import { notFound } from "@/lib/http/errors.ts";
import { assertOwnedNote } from "@/lib/notes/store/owned-note.ts";
import type { EditRewriteInput, Rewrite } from "@/lib/rewrites/schemas.ts";

// A note's rewrites: listed, read, edited and deleted by their owner only (a foreign id is a 404).

export function toRewrite(row: NoteRewrite): Rewrite {
  return {
    id: row.id,
    transcription_id: row.transcriptionId,
    style: row.style,
    style_id: row.styleId,
    style_name: row.styleName,
    title: row.title,
    text: row.text,
    written_by: row.writtenBy === "writer" || row.writtenBy === "local-model" ? row.writtenBy : "offline",
    offline_reason: row.offlineReason,
    edited_at: row.editedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const REWRITES_PER_NOTE_LISTED = 200;

export async function listRewrites({ userId, id }: { userId: string; id: string }): Promise<Rewrite[]> {
  const prisma = await db();
  await assertOwnedNote({ userId, id });
  const rows = await prisma.noteRewrite.findMany({
    where: { transcriptionId: id, userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: REWRITES_PER_NOTE_LISTED,
  });
  return rows.map(toRewrite);
}

export async function getRewrite({ userId, id }: { userId: string; id: string }): Promise<Rewrite> {
  const prisma = await db();
  const row = await prisma.noteRewrite.findFirst({ where: { id, userId } });
  if (!row) throw notFound(`The rewrite ${id}`);
  return toRewrite(row);
}

export async function editRewrite({ userId, id, input }: { userId: string; id: string; input: EditRewriteInput }): Promise<Rewrite> {
  const prisma = await db();
  const { count } = await prisma.noteRewrite.updateMany({ where: { id, userId }, data: { ...input, editedAt: new Date() } });
  if (!count) throw notFound(`The rewrite ${id}`);
  return getRewrite({ userId, id });
}

export async function deleteRewrite({ userId, id }: { userId: string; id: string }): Promise<Rewrite> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const row = await tx.noteRewrite.findFirst({ where: { id, userId } });
    // Deleted by a request at the same moment (the count waits for its commit): not found, as after it.
    const deleted = row && (await tx.noteRewrite.deleteMany({ where: { id, userId } })).count;
    if (!row || !deleted) throw notFound(`The rewrite ${id}`);
    return toRewrite(row);
  });
}
