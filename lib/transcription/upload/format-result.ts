import type { Segment } from "@/lib/segment.ts";
import { assignWords } from "@/lib/notes/words.ts";
import type { ResponseFormat } from "@/lib/transcription/schemas.ts";
import type { TranscriptionResult } from "@/lib/notes/schemas.ts";

/** What a request asked for besides the format: `words` when timestamp_granularities[] has word. */
export type FormatOptions = { words?: boolean };

function timestamp(seconds: number, separator: "," | "."): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

// Subtitle cues the way broadcasters set them (Netflix's English guide): at most two lines of at
// most 42 characters, and a new cue after each sentence.
export const CUE_LINE_MAX = 42;
const SENTENCE_END = /[.?!…]["'”’)\]]*$/u;

export type Cue = { start: number; end: number; lines: string[] };
type TimedToken = { text: string; start: number; end: number };

const length = (text: string) => [...text].length;

/** Each whitespace-separated token of the segment's text with its time. */
function timedTokens(segment: Segment): TimedToken[] {
  const tokens = segment.text.split(/\s+/).filter(Boolean);
  // The words, each cut where its own text has spaces (a dictionary phrase "New York"), line up
  // with the text's tokens when nothing else changed the text: then their times are the tokens'.
  const fromWords = (segment.words ?? []).flatMap((w) => spread(w.word.split(/\s+/).filter(Boolean), w.start, w.end));
  if (fromWords.length && fromWords.length === tokens.length) return tokens.map((text, i) => ({ ...fromWords[i], text }));
  return spread(tokens, segment.start, segment.end);
}

/** Texts laid over [start, end] in proportion to their lengths (a space between each). */
function spread(texts: string[], start: number, end: number): TimedToken[] {
  const total = texts.reduce((sum, t) => sum + length(t), 0) + Math.max(0, texts.length - 1);
  let offset = 0;
  return texts.map((text) => {
    const at = (chars: number) => (total ? start + ((end - start) * chars) / total : start);
    const token = { text, start: at(offset), end: at(offset + length(text)) };
    offset += length(text) + 1;
    return token;
  });
}

/** A token longer than a line, cut into line-long pieces (its time shared out). */
function fitToLine(token: TimedToken): TimedToken[] {
  const chars = [...token.text];
  if (chars.length <= CUE_LINE_MAX) return [token];
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += CUE_LINE_MAX) pieces.push(chars.slice(i, i + CUE_LINE_MAX).join(""));
  return spread(pieces, token.start, token.end);
}

/**
 * The tokens as at most two lines of at most 42 characters, the lines as even as possible (a
 * shorter first line on a tie); null when they do not fit.
 */
export function cueLines(texts: string[]): string[] | null {
  const whole = texts.join(" ");
  if (length(whole) <= CUE_LINE_MAX) return [whole];
  let best: string[] | null = null;
  let bestLongest = Infinity;
  for (let cut = 1; cut < texts.length; cut++) {
    const lines = [texts.slice(0, cut).join(" "), texts.slice(cut).join(" ")];
    const longest = Math.max(...lines.map(length));
    if (longest <= CUE_LINE_MAX && longest < bestLongest) {
      best = lines;
      bestLongest = longest;
    }
  }
  return best;
}

/** One segment's cues: a new cue after each sentence and whenever two lines would overflow. */
function segmentCues(segment: Segment): Cue[] {
  const cues: Cue[] = [];
  let current: TimedToken[] = [];
  const close = () => {
    if (current.length) {
      cues.push({ start: current[0].start, end: current.at(-1)!.end, lines: cueLines(current.map((t) => t.text))! });
    }
    current = [];
  };
  for (const token of timedTokens(segment).flatMap(fitToLine)) {
    if (current.length && !cueLines([...current, token].map((t) => t.text))) close();
    current.push(token);
    if (SENTENCE_END.test(token.text)) close();
  }
  close();
  return cues;
}

/**
 * Subtitle cues of a result: each segment cut at sentence ends and into at most two lines of at
 * most 42 characters. Times come from the words when the result has them, else are shared out
 * within the segment by length; with no segments, the whole text spans the recording.
 */
export function subtitleCues(result: Pick<TranscriptionResult, "segments" | "words" | "text" | "duration">): Cue[] {
  let segments: Segment[] = result.segments ?? [];
  if (!segments.length && result.text) segments = [{ start: 0, end: result.duration, text: result.text }];
  if (result.words?.length) segments = assignWords(segments, result.words);
  return segments.flatMap(segmentCues);
}

export function toSrt(result: TranscriptionResult): string {
  return subtitleCues(result)
    .map((c, i) => `${i + 1}\n${timestamp(c.start, ",")} --> ${timestamp(c.end, ",")}\n${c.lines.join("\n")}\n`)
    .join("\n");
}

export function toVtt(result: TranscriptionResult): string {
  const cues = subtitleCues(result).map((c) => `${timestamp(c.start, ".")} --> ${timestamp(c.end, ".")}\n${c.lines.join("\n")}\n`);
  return ["WEBVTT\n", ...cues].join("\n");
}

/** OpenAI's shapes for its json and verbose_json formats, so OpenAI clients parse them as they expect. */
export function formatOpenAiResult(
  result: TranscriptionResult,
  format: ResponseFormat,
  options: FormatOptions = {},
): ReturnType<typeof formatResult> {
  if (format === "json") return { json: { text: result.text } };
  if (format === "verbose_json") {
    return {
      json: {
        task: "transcribe",
        language: result.language,
        duration: result.duration,
        text: result.text,
        segments: (result.segments ?? []).map((s, id) => ({ id, start: s.start, end: s.end, text: s.text })),
        ...(options.words && { words: result.words ?? [] }),
      },
    };
  }
  return formatResult(result, format);
}

/** The response for a response_format: JSON bodies, or plain text / subtitles. */
export function formatResult(
  result: TranscriptionResult,
  format: ResponseFormat,
  options: FormatOptions = {},
): { body: string; contentType: string } | { json: unknown } {
  switch (format) {
    case "json": {
      const { segments: _segments, words: _words, ...rest } = result;
      return { json: rest };
    }
    case "verbose_json": {
      const { words, ...rest } = result;
      return { json: { ...rest, segments: result.segments ?? [], ...(options.words && { words: words ?? [] }) } };
    }
    case "text":
      return { body: `${result.text}\n`, contentType: "text/plain; charset=utf-8" };
    case "srt":
      return { body: toSrt(result), contentType: "application/x-subrip; charset=utf-8" };
    case "vtt":
      return { body: toVtt(result), contentType: "text/vtt; charset=utf-8" };
  }
}
