import type { CleanUpWorkflow, Note } from "@/lib/db/generated/client.ts";
import type { Segment } from "@/lib/segment.ts";
import { flattenWords } from "@/lib/notes/words.ts";
import { insightsPending } from "@/lib/insights/insights-basis.ts";
import { insightsMarks, storedInsights } from "@/lib/insights/store-insights.ts";
import type { Optimization, TranscriptionResult } from "@/lib/notes/schemas.ts";

/** What a clean-up changed, word by word (lib/clean-up/clean-up-guard.ts writes it). */
type WordChange = { recognized: string; cleaned: string };

type NoteRow = Note & { optimization?: CleanUpWorkflow | null };

// A second pass, running or waiting its turn, renews the note's text_improving_since this often
// (lib/transcription/live/hear-again.ts); one not renewed for three times as long was left by a
// process that stopped (kill -9, a crash), and the note no longer says its text is improving: it
// keeps its live text, the improvement skipped. A pass is trusted while it renews the mark, not for a
// fixed time from its start, so a note never says text_improving long after its process is gone.
export const IMPROVING_RENEWED_MS = 30_000;
export const IMPROVING_AT_MOST_MS = 3 * IMPROVING_RENEWED_MS;
const isImproving = (since: Date | null) => since !== null && Date.now() - since.getTime() < IMPROVING_AT_MOST_MS;

/** A stored transcription (with its optimization, when loaded) as the API answers it. */
export function presentNote(row: NoteRow): TranscriptionResult {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    edited_at: row.editedAt?.toISOString() ?? null,
    text_improved_at: row.textImprovedAt?.toISOString() ?? null,
    text_improving: isImproving(row.textImprovingSince),
    text_improved_undoable: row.textBeforeImproved !== null && row.editedAt === null && !isImproving(row.textImprovingSince),
    text: row.text,
    raw_text: row.rawText,
    language: row.language,
    duration: row.durationSec,
    engine: row.engine,
    dictionary_replacements: row.dictionaryReplacements,
    ...timedParts(row.segments as Segment[]),
    recording: row.recordingId !== null && row.recordingPart !== null ? { id: row.recordingId, part: row.recordingPart } : null,
    title: row.title,
    recorded_at: (row.recordedAt ?? row.createdAt).toISOString(),
    audio:
      row.audioType && row.audioBytes !== null
        ? { url: `/api/v1/transcriptions/${row.id}/audio`, content_type: row.audioType, bytes: row.audioBytes }
        : null,
    audio_pending: row.audioPendingSince !== null && !row.audioType,
    insights: storedInsights(row.insights),
    insights_pending: row.optimization !== undefined || row.optimizationId === null ? insightsPending({ ...row, optimization: row.optimization ?? null }, insightsMarks(row.insights)) : false,
    tags: row.tags,
    pinned: row.pinned,
    ...(row.optimization && cleanUpFields(row.optimization)),
  };
}

/** The stored segments as the API shows them: segments without their words, and the words in one list (when there are any). */
function timedParts(stored: Segment[]): Pick<TranscriptionResult, "segments" | "words"> {
  const segments = stored.map((s) => ({ start: s.start, end: s.end, text: s.text }));
  const words = flattenWords(stored);
  return words.length ? { segments, words } : { segments };
}

function cleanUpFields(w: CleanUpWorkflow): Pick<TranscriptionResult, "optimizer_processing" | "optimization"> {
  return {
    optimizer_processing: {
      optimizer_workflow_name: w.name,
      optimizer_workflow_id: w.id,
      optimizer_call_id: w.callId,
      optimizer_execution_id: w.executionId,
    },
    optimization: {
      status: w.status as Optimization["status"],
      optimizer: w.optimizer as Optimization["optimizer"],
      mode: w.mode as Optimization["mode"],
      progress: { chunks_done: w.chunksDone, chunks_total: w.chunksTotal },
      text: w.status === "completed" ? w.optimizedText : null,
      changes: w.status === "completed" ? ((w.changes as WordChange[] | null) ?? []) : null,
      rejected_reason: w.rejectedReason,
      error: w.errorCode ? { code: w.errorCode, message: w.errorMessage ?? "" } : null,
      completed_at: w.completedAt?.toISOString() ?? null,
    },
  };
}
