import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { z } from "zod";
import type { JobSpec } from "@/lib/jobs/define-job.ts";
import { enqueueJobOnce } from "@/lib/jobs/queue.ts";
import type { loadDictionary } from "@/lib/dictionary/store/dictionary-entries.ts";
import { errorFields, log } from "@/lib/log.ts";
import { noteTextImproved } from "@/lib/notes/note-recognized.ts";
import { IMPROVING_RENEWED_MS } from "@/lib/notes/present-note.ts";
import { improveHeardText, notesImprovingUnrenewed, setTextImproving } from "@/lib/notes/store/note-writes.ts";
import { pieceWav } from "@/lib/transcription/recognition/recognize-pieces-audio.ts";
import type { stitchPieces } from "@/lib/transcription/recognition/stitch-pieces.ts";
import { cleanUpKey } from "@/lib/transcription/recognition/transcribe-audio.ts";
import type { RecognitionEngine } from "@/lib/transcription/recognizers/types.ts";

// What every second pass shares, a live recording's after Stop (live/hear-again.ts) and a note's
// heard again with a better recognizer on request (hear-note-again.ts): a durable job (pg-boss),
// queued once per note (one waiting per note: the queue's "short" policy, keyed by the note), run one at a time in a process behind
// live pieces and uploads (background urgency), so a pass accepted before a restart runs after it.
// The note's text_improving_since says a pass is wanted: renewed while a pass runs or waits, by
// the process holding it or, after a restart, by the sweep below, which also queues again a pass
// whose process stopped under it. Its text replaces the note's only if the person has not changed
// the note since, followed by the note's life from the new text.

export type HeardAgain = "improved" | "unchanged" | "edited" | "skipped" | "failed";

type Span = { start: number; end: number };

/** Which pass: a live recording's (its pieces and chunks) or a note's kept recording heard again. */
export const SecondPassPayload = z.strictObject({
  kind: z.enum(["live", "note"]),
  userId: z.string().min(1).max(100),
  noteId: z.string().min(1).max(100),
});
export type SecondPassPayload = z.output<typeof SecondPassPayload>;

/** The second-pass job without its runner (live/second-pass-job.ts): queued from both passes. */
export const secondPassJobSpec = {
  name: "second-pass",
  payload: SecondPassPayload,
  policy: "short",
  retryLimit: 2,
  retryDelaySeconds: 30,
  // Long: a pass of an hour's recording at the lowest priority; a run whose process stopped is found sooner by the sweep.
  expireInSeconds: 2 * 60 * 60,
  // One at a time in a process: background work must not pile up recordings' audio in the temporary directory.
  concurrency: () => 1,
} satisfies JobSpec;

// In this process: what tests and benchmarks wait for (queued here, settled when run here).
type Waiting = { promise: Promise<HeardAgain>; settle: (outcome: HeardAgain) => void };
const kept = globalThis as unknown as { voicedraftSecondPasses?: Map<string, Waiting> };
const waiting = () => (kept.voicedraftSecondPasses ??= new Map());

function waiter(noteId: string): Waiting {
  let w = waiting().get(noteId);
  if (!w) {
    let settle!: (outcome: HeardAgain) => void;
    const promise = new Promise<HeardAgain>((resolve) => (settle = resolve));
    waiting().set(noteId, (w = { promise, settle }));
  }
  return w;
}

/** The second pass of a note queued or run in this process (tests and benchmarks wait for it). */
export const whenHeardAgain = (noteId: string): Promise<HeardAgain> | undefined => waiting().get(noteId)?.promise;

/** Queues the note's second pass (its text_improving_since set by the caller); a pass already waiting for it is kept. */
export async function queueSecondPass(payload: SecondPassPayload): Promise<void> {
  waiter(payload.noteId);
  await enqueueJobOnce(secondPassJobSpec, payload, payload.noteId);
}

/**
 * Runs a queued pass with a temporary directory of its own (`prepare` fills it first: the
 * recording's audio). The note's text_improving_since is renewed meanwhile and cleared after; a
 * failure is retried by the queue, and after the last attempt the note says it is no longer improving.
 */
export async function runSecondPass({
  userId,
  noteId,
  prepare,
  pass,
  what,
  lastAttempt,
}: {
  userId: string;
  noteId: string;
  prepare: (dir: string) => Promise<void>;
  pass: (dir: string) => Promise<HeardAgain>;
  what: string;
  lastAttempt: boolean;
}): Promise<HeardAgain> {
  const dir = await mkdtemp(path.join(tmpdir(), "vd-hear-again-"));
  const renew = setInterval(() => {
    void setTextImproving({ userId, id: noteId, since: new Date(), onlyIfImproving: true }).catch(() => undefined);
  }, IMPROVING_RENEWED_MS);
  renew.unref();
  let outcome: HeardAgain;
  try {
    await prepare(dir);
    outcome = await pass(dir);
  } catch (err) {
    if (!lastAttempt) throw err;
    log.warn(`${what}: the second pass failed; the note keeps its text`, { transcription_id: noteId, ...errorFields(err) });
    outcome = "failed";
  } finally {
    clearInterval(renew);
    await rm(dir, { recursive: true, force: true });
  }
  await setTextImproving({ userId, id: noteId, since: null }).catch(() => undefined);
  return outcome;
}

/** A pass ended in this process (its job's run): whoever waits for it here hears how. */
export function secondPassEnded(noteId: string, outcome: HeardAgain): void {
  waiter(noteId).settle(outcome);
  waiting().delete(noteId);
}

/**
 * The sweep: notes whose pass no process renews (queued before a restart, or cut short by one) are
 * renewed, so they go on saying their text is improving, and their pass is queued again (the
 * queue keeps the one already waiting). `kindOf` says which pass a note was waiting for.
 */
export async function recoverSecondPasses(kindOf: (note: { userId: string; id: string }) => Promise<SecondPassPayload["kind"]>): Promise<number> {
  const notes = await notesImprovingUnrenewed(new Date(Date.now() - 2 * IMPROVING_RENEWED_MS));
  for (const note of notes) {
    await setTextImproving({ userId: note.userId, id: note.id, since: new Date(), onlyIfImproving: true });
    await enqueueJobOnce(secondPassJobSpec, { kind: await kindOf(note), userId: note.userId, noteId: note.id }, note.id);
  }
  return notes.length;
}

/** One span of the decoded recording, heard by `engine` at background urgency. */
export async function recognizeSpan(
  engine: RecognitionEngine,
  { wavPath, dataOffset, dir, index, span, cepstralMean, prompt, language }: { wavPath: string; dataOffset: number; dir: string; index: number; span: Span; cepstralMean?: number[]; prompt?: string; language?: string },
) {
  const piecePath = path.join(dir, `piece-${index}.wav`);
  await writeFile(piecePath, await pieceWav(wavPath, dataOffset, span));
  try {
    return await engine.recognize({ wavPath: piecePath, durationSec: span.end - span.start, prompt, language, cepstralMean, urgency: "background" });
  } finally {
    await rm(piecePath, { force: true });
  }
}

type Stitched = ReturnType<ReturnType<typeof stitchPieces>["result"]>;

/**
 * The text heard again in place of the note's, only if the note still holds `heardText`,
 * unedited; then the note's life from its new text (clean-up, insights, the posts that still hold
 * the old text) is lib/notes'. `cleanUpKey` names this pass's clean-up.
 */
export async function replaceHeardText(
  note: { userId: string; noteId: string; heardText: string; requestHash: string; durationSec: number; language?: string; pass: string },
  { recognition, corrected }: Stitched,
  entries: Awaited<ReturnType<typeof loadDictionary>>,
): Promise<HeardAgain> {
  if (!corrected.text.trim()) return "skipped";
  const replaced = await improveHeardText({
    userId: note.userId,
    id: note.noteId,
    heardText: note.heardText,
    next: { text: corrected.text, rawText: recognition.text, segments: corrected.segments, dictionaryReplacements: corrected.replacements, engine: recognition.engine },
  });
  if (replaced !== "replaced") return replaced;
  await noteTextImproved({
    userId: note.userId,
    noteId: note.noteId,
    cleanUpKey: cleanUpKey(`${note.requestHash}:${note.pass}`, entries),
    text: corrected.text,
    segments: corrected.segments,
    durationSec: note.durationSec,
    language: note.language,
  });
  return "improved";
}
