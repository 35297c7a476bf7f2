import type { Prisma } from "@/lib/db/generated/client.ts";
import { client } from "@/lib/notes/store/owned-note.ts";

// Reads of many of a person's notes for others than the list and search (lib/notes): the export's
// batches and the assistant's weekly review.

type Picked<S extends Prisma.NoteSelect> = Prisma.NoteGetPayload<{ select: S }>;

/** The person's notes in id order (uuid v7: creation order), `take` after the note `after`. */
export async function notesInIdOrder<S extends Prisma.NoteSelect>(
  { userId, after, take }: { userId: string; after?: string; take: number },
  select: S,
): Promise<Picked<S>[]> {
  const prisma = await client();
  return prisma.note.findMany({ where: { userId }, take, orderBy: { id: "asc" }, ...(after && { cursor: { id: after }, skip: 1 }), select }) as Promise<Picked<S>[]>;
}

/** The person's notes made since `since`, oldest first. */
export async function notesCreatedSince<S extends Prisma.NoteSelect>({ userId, since }: { userId: string; since: Date }, select: S): Promise<Picked<S>[]> {
  const prisma = await client();
  return prisma.note.findMany({ where: { userId, createdAt: { gte: since } }, orderBy: { createdAt: "asc" }, select }) as Promise<Picked<S>[]>;
}

/** The uploads of one of the person's recordings in parts, in part order (a retried part's first upload first). */
export async function recordingParts<S extends Prisma.NoteSelect>({ userId, recordingId }: { userId: string; recordingId: string }, select: S): Promise<Picked<S>[]> {
  const prisma = await client();
  return prisma.note.findMany({ where: { userId, recordingId }, orderBy: [{ recordingPart: "asc" }, { createdAt: "asc" }], select }) as Promise<Picked<S>[]>;
}
