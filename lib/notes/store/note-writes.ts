import { cleanUpExists } from "@/lib/clean-up/store/clean-up-workflows.ts";
import { db } from "@/lib/db/client.ts";
import { Prisma } from "@/lib/db/generated/client.ts";
import type { Db } from "@/lib/db/types.ts";
import { client, type NoteKey, type NoteRow } from "@/lib/notes/store/owned-note.ts";
import { shownText } from "@/lib/notes/store/shown-text.ts";

// The note's writes other than its audio and labels (note-audio-fields.ts, note-labels.ts). Those
// that must not move updated_at (it says when the text changed: the edit-conflict check) are SQL
// of their own; the text's own writes move it.

/** A new note (with its clean-up, as presentNote reads it). Unique violations reach the caller (a retried upload). */
export async function createNote(data: Prisma.NoteUncheckedCreateInput): Promise<NoteRow> {
  return (await db()).note.create({ data, include: { optimization: true } });
}

/** The note stored under an upload's Idempotency-Key, if any. */
export async function findNoteByIdempotencyKey({ userId, idempotencyKey }: { userId: string; idempotencyKey: string }): Promise<NoteRow | null> {
  return (await db()).note.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey } }, include: { optimization: true } });
}

/**
 * The person's edit of the text and/or title, compare-and-set on `updatedAt` when given (a stale
 * copy changes nothing). Returns how many notes changed (0: none such, or changed since).
 *
 * The text before the first edit is kept (text_before_edit): an edit back to what the note showed
 * then (its clean-up, else that text: Undo of "Fix a word", or of "Show the recognized text") makes
 * the note unedited again, so it shows and names its clean-up or recognized text, not "your edit".
 */
export async function replaceText({ userId, id, text, title, updatedAt }: { userId: string; id: string; text?: string; title?: string | null; updatedAt?: Date }): Promise<number> {
  const notes = (await db()).note;
  const titled = title !== undefined && { title: title || null };
  if (text === undefined) return (await notes.updateMany({ where: { id, userId, ...(updatedAt && { updatedAt }) }, data: { ...titled } })).count;
  // Read, then write only over what was read: a write in between (without the caller's updated_at)
  // means reading again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await notes.findFirst({
      where: { id, userId, ...(updatedAt && { updatedAt }) },
      select: { text: true, editedAt: true, textBeforeEdit: true, updatedAt: true, optimization: { select: { status: true, optimizedText: true } } },
    });
    if (!row) return 0;
    // Unknown for a note edited before the text before the edit was kept.
    const unedited = row.editedAt === null ? row.text : row.textBeforeEdit;
    const restores = unedited !== null && text === shownText({ text: unedited, editedAt: null, optimization: row.optimization });
    const data = restores ? { text: unedited, editedAt: null, textBeforeEdit: null } : { text, editedAt: new Date(), textBeforeEdit: unedited };
    const { count } = await notes.updateMany({ where: { id, userId, updatedAt: row.updatedAt }, data: { ...data, ...titled } });
    if (count || updatedAt) return count;
  }
  return 0;
}

/** What a note held before its recording was heard again: what Undo puts back. */
export type TextBeforeImproved = {
  text: string;
  rawText: string;
  segments: Prisma.JsonValue;
  dictionaryReplacements: number;
  engine: string;
  optimizationId: string | null;
};

/**
 * The text of the recording heard again in place of the note's text, only while the note still
 * holds `heardText` unedited: "replaced", "unchanged" (the same text, still there) or "edited"
 * (changed since). What it held is kept (text_before_improved), so the person can put it back.
 */
export async function improveHeardText({
  userId,
  id,
  heardText,
  next,
}: {
  userId: string;
  id: string;
  heardText: string;
  next: { text: string; rawText: string; segments: Prisma.InputJsonValue; dictionaryReplacements: number; engine: string };
}): Promise<"replaced" | "unchanged" | "edited"> {
  const prisma = await db();
  const where = { id, userId, editedAt: null, text: heardText };
  const before = await prisma.note.findFirst({
    where,
    select: { text: true, rawText: true, segments: true, dictionaryReplacements: true, engine: true, optimizationId: true, updatedAt: true },
  });
  if (!before) return "edited";
  if (next.text === heardText) return "unchanged";
  const { updatedAt, ...kept } = before;
  const replaced = await prisma.note.updateMany({
    where: { ...where, updatedAt },
    data: { ...next, textBeforeImproved: kept satisfies TextBeforeImproved, textImprovedAt: new Date(), textImprovingSince: null },
  });
  return replaced.count ? "replaced" : "edited";
}

/**
 * Puts back what the note held before its recording was heard again, while the person has not
 * edited it since: the restored fields, or null (nothing to put back, or edited since).
 */
export async function undoImprovedText({ userId, id }: { userId: string; id: string }): Promise<TextBeforeImproved | null> {
  const prisma = await db();
  const where = { id, userId, editedAt: null, textBeforeImproved: { not: Prisma.AnyNull } };
  const row = await prisma.note.findFirst({ where, select: { textBeforeImproved: true, updatedAt: true } });
  if (!row) return null;
  const kept = row.textBeforeImproved as TextBeforeImproved;
  // Its clean-up, unless that is gone since (a clean-up's row outlives its notes, but not its account's deletion).
  const cleanUpLeft = kept.optimizationId !== null && (await cleanUpExists({ id: kept.optimizationId }));
  const before = { ...kept, optimizationId: cleanUpLeft ? kept.optimizationId : null };
  const { count } = await prisma.note.updateMany({
    where: { ...where, updatedAt: row.updatedAt },
    data: {
      text: before.text,
      rawText: before.rawText,
      segments: before.segments ?? [],
      dictionaryReplacements: before.dictionaryReplacements,
      engine: before.engine,
      optimizationId: before.optimizationId,
      textBeforeImproved: Prisma.DbNull,
      textImprovedAt: null,
    },
  });
  return count ? before : null;
}

/**
 * Marks the note as being heard again, if it can be: its recording kept, not edited, not being
 * heard again already (a mark not renewed for `staleBefore` is a stopped process's). False: not.
 */
export async function claimHearingAgain({ userId, id, staleBefore }: { userId: string; id: string; staleBefore: Date }): Promise<boolean> {
  const { count } = await (await db()).note.updateMany({
    where: { id, userId, editedAt: null, audioStorage: { not: null }, OR: [{ textImprovingSince: null }, { textImprovingSince: { lt: staleBefore } }] },
    data: { textImprovingSince: new Date() },
  });
  return count > 0;
}

/** The note's text is being improved (renewed while the second pass runs: `onlyIfImproving`), or no longer (null). */
export async function setTextImproving({ userId, id, since, onlyIfImproving = false }: { userId: string; id: string; since: Date | null; onlyIfImproving?: boolean }): Promise<void> {
  await (await db()).note.updateMany({ where: { id, userId, ...(onlyIfImproving && { textImprovingSince: { not: null } }) }, data: { textImprovingSince: since } });
}

/** Notes said to be improving whose mark was last renewed before `before` (no process renews it): a few at a time. */
export async function notesImprovingUnrenewed(before: Date): Promise<{ id: string; userId: string }[]> {
  return (await db()).note.findMany({ where: { textImprovingSince: { lt: before } }, select: { id: true, userId: true }, take: 20 });
}

/** The note shows this clean-up from now on. */
export async function setCleanUp({ userId, id, optimizationId }: { userId: string; id: string; optimizationId: string }): Promise<void> {
  await (await db()).note.updateMany({ where: { id, userId }, data: { optimizationId } });
}

/** The stored insights value (JSON) of a note whose row lock `tx` holds (lockNote). */
export async function insightsValueOf(tx: Db, id: string): Promise<unknown> {
  return (await tx.note.findUniqueOrThrow({ where: { id }, select: { insights: true } })).insights;
}

/** Stores the note's insights value (under its row lock); updated_at stays. */
export async function setInsights(tx: Db, id: string, value: object): Promise<void> {
  await tx.$executeRaw`UPDATE "transcriptions" SET "insights" = ${JSON.stringify(value)}::jsonb WHERE "id" = ${id}`;
}

/** The notes that show this clean-up and were not edited since (their insights follow it). */
export async function uneditedNotesOfCleanUp(optimizationId: string): Promise<{ id: string; userId: string }[]> {
  return (await db()).note.findMany({ where: { optimizationId, editedAt: null }, select: { id: true, userId: true } });
}

/** The newest of the person's notes showing this clean-up, if any. */
export async function latestNoteOfCleanUp({ userId, optimizationId }: { userId: string; optimizationId: string }): Promise<{ id: string } | null> {
  return (await db()).note.findFirst({ where: { userId, optimizationId }, orderBy: { createdAt: "desc" }, select: { id: true } });
}

/**
 * Deletes the note's row in `tx`; answers whether its clean-up and its recognition are still used
 * by another note (another upload of the same recording), which the caller deletes if not.
 */
export async function deleteNoteRow(
  { userId, id, tx }: NoteKey & { tx: Db },
  { optimizationId, requestHash }: { optimizationId: string | null; requestHash: string },
): Promise<{ cleanUpShared: boolean; recognitionShared: boolean }> {
  const prisma = await client(tx);
  await prisma.note.deleteMany({ where: { id, userId } });
  const cleanUpShared = optimizationId ? (await prisma.note.count({ where: { optimizationId } })) > 0 : false;
  const recognitionShared = (await prisma.note.count({ where: { userId, requestHash } })) > 0;
  return { cleanUpShared, recognitionShared };
}
