import type { CompiledDictionary } from "@/lib/dictionary/matcher.ts";
import type { Segment } from "@/lib/segment.ts";
import { correctRecognition } from "@/lib/transcription/recognition/correct-recognition.ts";
import type { RecognizedPiece } from "@/lib/transcription/recognition/recognize-pieces.ts";
import type { Recognition } from "@/lib/transcription/recognizers/types.ts";

/**
 * The pieces of a long recording joined in order: each corrected with the dictionary on its own,
 * its segments (and their words) moved from the piece's time to the recording's.
 */
export function stitchPieces() {
  const raw: string[] = [];
  const texts: string[] = [];
  const segments: Segment[] = [];
  let replacements = 0;
  let first: RecognizedPiece["result"] | undefined;
  return {
    /** Adds the next piece; returns its corrected text. */
    add(piece: RecognizedPiece, dictionary: CompiledDictionary): string {
      first ??= piece.result;
      const corrected = correctRecognition({ ...piece.result, segments: piece.result.segments ?? [] }, dictionary);
      const at = (t: number) => Math.round((t + piece.start) * 1000) / 1000;
      for (const segment of corrected.segments) {
        segments.push({
          ...segment,
          start: at(segment.start),
          end: at(segment.end),
          ...(segment.words && { words: segment.words.map((w) => ({ ...w, start: at(w.start), end: at(w.end) })) }),
        });
      }
      if (piece.result.text) raw.push(piece.result.text);
      if (corrected.text) texts.push(corrected.text);
      replacements += corrected.replacements;
      return corrected.text;
    },
    result(): { recognition: Recognition; corrected: ReturnType<typeof correctRecognition> } {
      const recognition: Recognition = {
        text: raw.join(" "),
        segments,
        language: first?.language ?? "en",
        engine: first?.engine ?? "unknown",
        ...(first?.model && { model: first.model }),
      };
      return { recognition, corrected: { text: texts.join(" "), replacements, segments } };
    },
  };
}
