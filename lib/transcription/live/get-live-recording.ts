import { db } from "@/lib/db/client.ts";
import { notFound } from "@/lib/http/errors.ts";
import { loadDictionary } from "@/lib/dictionary/list-entries.ts";
import { compileDictionary } from "@/lib/dictionary/matcher.ts";
import { correctRecognition } from "@/lib/transcription/recognition/correct-recognition.ts";
import type { PieceResult } from "@/lib/transcription/recognition/recognize-pieces-job.ts";
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
  const texts = pieces.map((p) => {
    if (p.status !== "completed" || !p.result) return null;
    const result = p.result as PieceResult;
    return correctRecognition({ ...result, segments: result.segments ?? [] }, dictionary).text;
  });
  const firstWaiting = texts.indexOf(null);
  return {
    id: row.id,
    status: row.status as LiveRecording["status"],
    bytes_received: row.bytesReceived,
    heard_seconds: row.heardUntil,
    pieces: pieces.map((p, i) => ({ start: p.startSec, end: p.endSec, text: texts[i] })),
    text: (firstWaiting < 0 ? texts : texts.slice(0, firstWaiting)).filter(Boolean).join(" "),
    transcription_id: row.transcriptionId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
