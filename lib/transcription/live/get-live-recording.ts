import { db } from "@/lib/db/client.ts";
import { notFound } from "@/lib/http/errors.ts";
import { loadDictionary } from "@/lib/dictionary/store/dictionary-entries.ts";
import { compileDictionary } from "@/lib/dictionary/matcher.ts";
import { captionsReach, settledPieces } from "@/lib/transcription/live/captions-reach.ts";
import { provisionalWords, whenPhraseHeard } from "@/lib/transcription/live/live-captions.ts";
import { correctRecognition } from "@/lib/transcription/recognition/correct-recognition.ts";
import { whenPieceSettles, type PieceResult } from "@/lib/transcription/recognition/recognize-pieces-job.ts";
import type { LiveRecording } from "@/lib/transcription/schemas.ts";

/** A live recording as the phone sees it while recording: what arrived, and the captions so far. */
export async function getLiveRecording({ userId, id }: { userId: string; id: string }): Promise<LiveRecording> {
  const prisma = await db();
  const row = await prisma.liveRecording.findUnique({ where: { userId_id: { userId, id } } });
  if (!row) throw notFound(`The live recording ${id}`);
  const pieces = await prisma.recognitionPiece.findMany({
    where: { workflowId: row.workflowId },
    orderBy: { index: "asc" },
    select: { startSec: true, endSec: true, status: true, result: true },
  });
  const dictionary = compileDictionary(await loadDictionary(userId));
  const listed = pieces.map((p) => {
    const result = p.status === "completed" ? (p.result as PieceResult | null) : null;
    return { start: p.startSec, end: p.endSec, text: result ? correctRecognition({ ...result, segments: result.segments ?? [] }, dictionary).text : null };
  });
  const recognized = settledPieces({ pieces: listed });
  // After the pieces recognized so far, the words the stream recognizer heard (live-captions.ts).
  const heardAfter = recognized ? listed[recognized - 1].end : 0;
  // Then its guess at the phrase being spoken, which the phrase's words replace when it ends.
  // Its reach never goes back when a guess settles into the phrase's words: it had heard past them.
  const { words, guess, heardUntil } = row.status === "recording" ? provisionalWords(row, heardAfter) : { words: [], heardUntil: 0 };
  const provisionalText = dictionary.apply([...words.map((w) => w.word), ...(guess ? [guess.text] : [])].join(" ")).text;
  const provisionalUntil = Math.max(guess?.untilSec ?? 0, words.at(-1)?.end ?? 0, words.length ? heardUntil : 0);
  return {
    id: row.id,
    status: row.status as LiveRecording["status"],
    bytes_received: row.bytesReceived,
    heard_seconds: row.heardUntil,
    pieces: listed,
    text: listed.slice(0, recognized).map((p) => p.text).filter(Boolean).join(" "),
    provisional_text: provisionalText,
    provisional_until: provisionalText ? provisionalUntil : null,
    transcription_id: row.transcriptionId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * GET …?captions_after: the recording once its captions reach past `after` seconds, or a piece is
 * recognized, or it is finished; at the latest after `waitSec`, or when the client goes. The phone
 * then shows a phrase as soon as the stream recognizer hears it, not at its next PATCH's answer
 * (about half a second later on average, a second at worst).
 */
export async function waitForLiveCaptions({ userId, id, after, waitSec, signal }: { userId: string; id: string; after: number; waitSec: number; signal?: AbortSignal }): Promise<LiveRecording> {
  const prisma = await db();
  const row = await prisma.liveRecording.findUnique({ where: { userId_id: { userId, id } }, select: { workflowId: true } });
  if (!row) throw notFound(`The live recording ${id}`);
  // Listening before reading, so that nothing heard in between is missed.
  let wake!: () => void;
  const woken = new Promise<void>((resolve) => (wake = resolve));
  const stop = [whenPhraseHeard({ userId, id }, wake), whenPieceSettles(row.workflowId, wake)];
  const timer = setTimeout(wake, waitSec * 1000);
  signal?.addEventListener("abort", wake);
  try {
    const now = await getLiveRecording({ userId, id });
    if (now.status !== "recording" || captionsReach(now) > after + 0.001) return now;
    await woken;
    return await getLiveRecording({ userId, id });
  } finally {
    for (const off of stop) off();
    clearTimeout(timer);
    signal?.removeEventListener("abort", wake);
  }
}
