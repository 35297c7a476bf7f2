import type { Segment } from "@/lib/transcript/segment.ts";
import type { PieceResult } from "@/lib/transcription/recognition/recognize-pieces-job.ts";

/**
 * A piece's recognition without what was heard in its lead (the seconds of context before the
 * piece itself): words that end inside the lead are dropped, and a segment without words left
 * goes too (one without word times, when its middle lies in the lead).
 */
export function withoutLead(result: PieceResult, leadSec: number): PieceResult {
  if (!(leadSec > 0)) return result;
  const segments: Segment[] = [];
  for (const segment of result.segments ?? []) {
    if (segment.words?.length) {
      const words = segment.words.filter((w) => (w.start + w.end) / 2 > leadSec);
      if (!words.length) continue;
      const text = words.length === segment.words.length ? segment.text : words.map((w) => w.word.trim()).join(" ");
      segments.push({ ...segment, start: Math.max(segment.start, words[0].start), text, words });
    } else if ((segment.start + segment.end) / 2 > leadSec) segments.push(segment);
  }
  return { ...result, segments, text: segments.map((s) => s.text.trim()).filter(Boolean).join(" ") };
}
