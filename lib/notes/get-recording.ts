import { recordingParts } from "@/lib/notes/store/note-lists.ts";
import { shownText } from "@/lib/notes/store/shown-text.ts";
import { notFound } from "@/lib/http/errors.ts";
import type { Recording } from "@/lib/notes/schemas.ts";

type Status = "pending" | "running" | "completed" | "failed";
// The recording's status is its least advanced part's; any failed part fails it.
const ORDER: Status[] = ["pending", "running", "completed"];

/** The parts of one of the user's recordings, joined in order (the first upload of each part). */
export async function getRecording({ userId, recordingId }: { userId: string; recordingId: string }): Promise<Recording> {
  // Not the parts' segments: a long recording's are large, and the joined view does not show them.
  const rows = await recordingParts(
    { userId, recordingId },
    {
      id: true,
      recordingPart: true,
      text: true,
      editedAt: true,
      durationSec: true,
      createdAt: true,
      updatedAt: true,
      tags: true,
      pinned: true,
      optimization: { select: { status: true, chunksDone: true, chunksTotal: true, optimizedText: true } },
    },
  );
  if (!rows.length) throw notFound(`The recording ${recordingId}`);
  const parts = rows.filter((row, i) => i === 0 || row.recordingPart !== rows[i - 1].recordingPart);
  const workflows = parts.map((p) => p.optimization);
  let optimization: Recording["optimization"] = null;
  if (workflows.every((w) => w !== null)) {
    const statuses = workflows.map((w) => w.status as Status);
    const status = statuses.includes("failed") ? "failed" : ORDER[Math.min(...statuses.map((s) => ORDER.indexOf(s)))];
    optimization = {
      status,
      progress: {
        chunks_done: workflows.reduce((n, w) => n + w.chunksDone, 0),
        chunks_total: workflows.reduce((n, w) => n + w.chunksTotal, 0),
      },
      // Each part as it shows (lib/notes/store/shown-text.ts): an edited part its edit, a blank clean-up its recognized text.
      text: status === "completed" ? parts.map((p) => shownText(p)).filter(Boolean).join("\n\n") : null,
    };
  }
  return {
    id: recordingId,
    parts: parts.map((p) => ({
      part: p.recordingPart!,
      transcription_id: p.id,
      text: p.text,
      duration: p.durationSec,
      optimization_status: (p.optimization?.status as Status | undefined) ?? null,
    })),
    parts_received: parts.length,
    text: parts.map((p) => p.text).filter(Boolean).join(" "),
    duration: Math.round(parts.reduce((n, p) => n + p.durationSec, 0) * 1000) / 1000,
    optimization,
    tags: parts[0].tags,
    pinned: parts[0].pinned,
    created_at: parts[0].createdAt.toISOString(),
    updated_at: new Date(Math.max(...parts.map((p) => p.updatedAt.getTime()))).toISOString(),
  };
}
