import type { Segment } from "@/lib/segment.ts";

// A note's text is cleaned up in chunks of whole utterances (the recognizer's segments, which end
// at pauses). A chunk's input keeps one utterance per line, so a clean-up knows where the speaker
// paused; a long pause starts a new paragraph.

export type TranscriptChunk = { index: number; inputText: string; paragraph: boolean };

const PARAGRAPH_PAUSE_SECONDS = 1.5;

type Utterance = { words: string[]; paragraph: boolean };

function utterances(text: string, segments: Segment[]): Utterance[] {
  const source = segments.length ? segments : [{ start: 0, end: 0, text }];
  const result: Utterance[] = [];
  let previousEnd: number | undefined;
  for (const segment of source) {
    const words = segment.text.split(/\s+/).filter(Boolean);
    if (!words.length) continue;
    const paragraph = previousEnd !== undefined && segment.start - previousEnd >= PARAGRAPH_PAUSE_SECONDS;
    result.push({ words, paragraph });
    previousEnd = segment.end;
  }
  return result;
}

/** Splits a transcript into chunks of at most `maxWords` words, at utterance boundaries where possible. */
export function chunkTranscript(text: string, segments: Segment[], maxWords: number): TranscriptChunk[] {
  const chunks: TranscriptChunk[] = [];
  let lines: string[] = [];
  let count = 0;
  let paragraph = false;
  const flush = () => {
    if (lines.length) chunks.push({ index: chunks.length, inputText: lines.join("\n"), paragraph });
    lines = [];
    count = 0;
  };
  for (const utterance of utterances(text, segments)) {
    if (count && count + utterance.words.length > maxWords) flush();
    for (let i = 0; i < utterance.words.length; i += maxWords) {
      if (count >= maxWords) flush();
      const startsParagraph = utterance.paragraph && i === 0;
      if (!lines.length) paragraph = startsParagraph;
      else if (startsParagraph) lines.push("");
      const part = utterance.words.slice(i, i + maxWords);
      lines.push(part.join(" "));
      count += part.length;
    }
  }
  flush();
  return chunks;
}

/** The cleaned-up chunks put back together: paragraphs where the recording paused. */
export function joinChunks(chunks: { paragraph: boolean; outputText: string }[]): string {
  return chunks
    .map((chunk, i) => (i === 0 ? "" : chunk.paragraph ? "\n\n" : " ") + chunk.outputText.trim())
    .join("")
    .trim();
}
