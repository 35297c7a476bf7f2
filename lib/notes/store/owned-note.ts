import { db } from "@/lib/db/client.ts";
import type { Prisma } from "@/lib/db/generated/client.ts";
import type { Db } from "@/lib/db/types.ts";
import { notFound } from "@/lib/http/errors.ts";

// The note's store (lib/notes/store): every query and write of the notes' table goes through these
// files, and no other domain names the table (tests/unit/layering.test.ts). Ownership is in every
// query (`where: { id, userId }`), so another person's note reads as a missing one.

/** Which note: one of this person's, read in `tx` when given. */
export type NoteKey = { userId: string; id: string; tx?: Db };

/** A stored note with its clean-up, as presentNote and shownTextOf read it. */
export type NoteRow = Prisma.NoteGetPayload<{ include: { optimization: true } }>;

type Picked<S extends Prisma.NoteSelect> = Prisma.NoteGetPayload<{ select: S }>;

export const client = async (tx?: Db): Promise<Db> => tx ?? (await db());

/** The person's note (with its clean-up, or the fields `select` names); null when they have no such note. */
export async function findOwnedNote(key: NoteKey): Promise<NoteRow | null>;
export async function findOwnedNote<S extends Prisma.NoteSelect>(key: NoteKey, select: S): Promise<Picked<S> | null>;
export async function findOwnedNote(key: NoteKey, select?: Prisma.NoteSelect): Promise<unknown> {
  const prisma = await client(key.tx);
  const where = { id: key.id, userId: key.userId };
  return select ? prisma.note.findFirst({ where, select }) : prisma.note.findFirst({ where, include: { optimization: true } });
}

/** findOwnedNote, or 404 not_found ("The transcription <id> was not found."). */
export async function getOwnedNote(key: NoteKey): Promise<NoteRow>;
export async function getOwnedNote<S extends Prisma.NoteSelect>(key: NoteKey, select: S): Promise<Picked<S>>;
export async function getOwnedNote(key: NoteKey, select?: Prisma.NoteSelect): Promise<unknown> {
  const row = select ? await findOwnedNote(key, select) : await findOwnedNote(key);
  if (!row) throw notFound(`The transcription ${key.id}`);
  return row;
}

/** 404 unless the person has this note (counted, nothing read). */
export async function assertOwnedNote(key: NoteKey): Promise<void> {
  const prisma = await client(key.tx);
  if (!(await prisma.note.count({ where: { id: key.id, userId: key.userId } }))) throw notFound(`The transcription ${key.id}`);
}

/** These of the person's notes (any order; missing ones absent), with the fields `select` names. */
export async function findOwnedNotes<S extends Prisma.NoteSelect>({ userId, ids, tx }: { userId: string; ids: string[]; tx?: Db }, select: S): Promise<Picked<S>[]> {
  const prisma = await client(tx);
  return prisma.note.findMany({ where: { userId, id: { in: ids } }, select }) as Promise<Picked<S>[]>;
}

/** How many notes the person has. */
export async function countNotes({ userId }: { userId: string }): Promise<number> {
  return (await db()).note.count({ where: { userId } });
}

/** Takes the note's row lock for the rest of the transaction; false when the person has no such note. */
export async function lockNote(tx: Db, userId: string, id: string): Promise<boolean> {
  return (await tx.$executeRaw`SELECT 1 FROM "transcriptions" WHERE "id" = ${id} AND "user_id" = ${userId} FOR UPDATE`) === 1;
}
