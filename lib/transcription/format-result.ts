import type { Segment } from "@/lib/transcript/segment.ts";
import type { ResponseFormat, TranscriptionResult } from "@/lib/transcription/schemas.ts";

function timestamp(seconds: number, separator: "," | "."): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** Subtitle cues: the segments, or the whole text as one cue when the engine gave none. */
function cues(result: TranscriptionResult): Segment[] {
  if (result.segments?.length) return result.segments;
  return result.text ? [{ start: 0, end: result.duration, text: result.text }] : [];
}

export function toSrt(result: TranscriptionResult): string {
  return cues(result)
    .map((c, i) => `${i + 1}\n${timestamp(c.start, ",")} --> ${timestamp(c.end, ",")}\n${c.text}\n`)
    .join("\n");
}

export function toVtt(result: TranscriptionResult): string {
  return ["WEBVTT\n", ...cues(result).map((c) => `${timestamp(c.start, ".")} --> ${timestamp(c.end, ".")}\n${c.text}\n`)].join("\n");
}

/** OpenAI's shapes for its json and verbose_json formats, so OpenAI clients parse them as they expect. */
export function formatOpenAiResult(result: TranscriptionResult, format: ResponseFormat): ReturnType<typeof formatResult> {
  if (format === "json") return { json: { text: result.text } };
  if (format === "verbose_json") {
    return {
      json: {
        task: "transcribe",
        language: result.language,
        duration: result.duration,
        text: result.text,
        segments: (result.segments ?? []).map((s, id) => ({ id, start: s.start, end: s.end, text: s.text })),
      },
    };
  }
  return formatResult(result, format);
}

/** The response for a response_format: JSON bodies, or plain text / subtitles. */
export function formatResult(result: TranscriptionResult, format: ResponseFormat): { body: string; contentType: string } | { json: unknown } {
  switch (format) {
    case "json": {
      const { segments: _segments, ...rest } = result;
      return { json: rest };
    }
    case "verbose_json":
      return { json: { ...result, segments: result.segments ?? [] } };
    case "text":
      return { body: `${result.text}\n`, contentType: "text/plain; charset=utf-8" };
    case "srt":
      return { body: toSrt(result), contentType: "application/x-subrip; charset=utf-8" };
    case "vtt":
      return { body: toVtt(result), contentType: "text/vtt; charset=utf-8" };
  }
}
