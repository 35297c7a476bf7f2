import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { loadDictionary } from "@/lib/dictionary/list-entries.ts";
import { errorFields, log } from "@/lib/log.ts";
import { noteTextImproved } from "@/lib/notes/note-recognized.ts";
import { IMPROVING_RENEWED_MS } from "@/lib/notes/present-note.ts";
import { improveHeardText, setTextImproving } from "@/lib/notes/store/note-writes.ts";
import { pieceWav } from "@/lib/transcription/recognition/recognize-pieces-audio.ts";
import type { stitchPieces } from "@/lib/transcription/recognition/stitch-pieces.ts";
import { cleanUpKey } from "@/lib/transcription/recognition/transcribe-audio.ts";
import { BoundedQueue } from "@/lib/transcription/recognizers/bounded-queue.ts";
import type { RecognitionEngine } from "@/lib/transcription/recognizers/types.ts";

// What every second pass shares, a live recording's after Stop (live/hear-again.ts) and a note's
// heard again with a better recognizer on request (hear-note-again.ts): one at a time in a
// process behind live pieces and uploads, its note's text_improving_since renewed while it runs
// or waits, its temporary directory removed after; and its text in place of the note's, only if
// the person has not changed the note since, followed by the note's life from the new text.

export type HeardAgain = "improved" | "unchanged" | "edited" | "skipped" | "failed";

type Span = { start: number; end: number };

// One second pass at a time in a process, a few waiting: background work must not pile up
// recordings' audio in the temporary directory of a busy server.
const passes = new BoundedQueue(1, 20);
const running = new Map<string, Promise<HeardAgain>>();

/** The second pass of a note under way in this process (tests and benchmarks wait for it). */
export const whenHeardAgain = (noteId: string): Promise<HeardAgain> | undefined => running.get(noteId);

/**
 * Runs `pass` in the background queue with a temporary directory of its own (`prepare` fills it
 * first: the recording's audio, copied while the caller still has it). The note's
 * text_improving_since is renewed meanwhile and cleared after. Not awaited by the caller.
 */
export async function startSecondPass({
  userId,
  noteId,
  prepare,
  pass,
  what,
}: {
  userId: string;
  noteId: string;
  prepare: (dir: string) => Promise<void>;
  pass: (dir: string) => Promise<HeardAgain>;
  what: string;
}): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "vd-hear-again-"));
  try {
    await prepare(dir);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    await setTextImproving({ userId, id: noteId, since: null }).catch(() => undefined);
    throw err;
  }
  // While it runs or waits, the pass renews the note's text_improving_since: a note whose process
  // stopped under it stops saying its text is improving (lib/notes/present-note.ts).
  const renew = setInterval(() => {
    void setTextImproving({ userId, id: noteId, since: new Date(), onlyIfImproving: true }).catch(() => undefined);
  }, IMPROVING_RENEWED_MS);
  renew.unref();
  const run = passes
    .run(() => pass(dir), undefined, "background")
    .catch((err: unknown) => {
      log.warn(`${what}: the second pass failed; the note keeps its text`, { transcription_id: noteId, ...errorFields(err) });
      return "failed" as const;
    })
    .finally(async () => {
      clearInterval(renew);
      running.delete(noteId);
      await rm(dir, { recursive: true, force: true });
      await setTextImproving({ userId, id: noteId, since: null }).catch(() => undefined);
    });
  running.set(noteId, run);
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
