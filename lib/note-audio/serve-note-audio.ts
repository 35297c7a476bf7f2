import { Readable } from "node:stream";
import { ApiError, notFound } from "@/lib/http/errors.ts";
import { audioStore, type AudioStorage, type ByteRange } from "@/lib/note-audio/audio-store.ts";
import { findOwnedNote } from "@/lib/notes/store/owned-note.ts";

/**
 * A byte range of `size` from a Range header (RFC 9110 §14.1.2): "bytes=a-b", "bytes=a-" or
 * "bytes=-n". null: no usable Range (absent, another unit, several ranges), so the whole file is
 * sent. "unsatisfiable": a well-formed range that starts past the end (416).
 */
export function parseRange(header: string | null, size: number): ByteRange | null | "unsatisfiable" {
  const match = header?.trim().match(/^bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i);
  if (!match || (match[1] === "" && match[2] === "")) return null;
  const [, from, to] = match;
  if (from === "") {
    const suffix = Number(to);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
  if (to !== "" && Number(to) < start) return null; // invalid: ignored, as the RFC says
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

const noAudio = () => notFound("A kept recording of this note");

/**
 * GET /api/v1/transcriptions/{id}/audio: the note's kept recording, owner only, with Range
 * (206), ETag, If-None-Match (304) and If-Range, so players seek and caches revalidate.
 */
export async function serveNoteAudio({ userId, id, req }: { userId: string; id: string; req: Request }): Promise<Response> {
  const note = await findOwnedNote({ userId, id }, { audioStorage: true, audioType: true, audioBytes: true, audioKeptAt: true });
  if (!note) throw notFound("Transcription");
  if (!note.audioStorage || !note.audioType || note.audioBytes === null || !note.audioKeptAt) throw noAudio();
  const size = note.audioBytes;
  const etag = `"${id}-${note.audioKeptAt.getTime().toString(36)}-${size.toString(36)}"`;
  const headers = new Headers({
    "Accept-Ranges": "bytes",
    ETag: etag,
    // Private: it is someone's voice. Revalidated with the ETag, which changes if it is replaced.
    "Cache-Control": "private, no-cache",
    "Content-Type": note.audioType,
  });
  if (matchesEtag(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });

  const ifRange = req.headers.get("if-range");
  const range = ifRange && ifRange !== etag ? null : parseRange(req.headers.get("range"), size);
  if (range === "unsatisfiable") {
    throw new ApiError("range_not_satisfiable", `The recording has ${size} bytes; the Range asked for starts past its end.`, {
      headers: { "Content-Range": `bytes */${size}` },
    });
  }
  const whole = { start: 0, end: size - 1 };
  const part = range ?? whole;
  if (size === 0) return new Response(null, { status: 200, headers: { ...Object.fromEntries(headers), "Content-Length": "0" } });
  headers.set("Content-Length", String(part.end - part.start + 1));
  if (range) headers.set("Content-Range", `bytes ${part.start}-${part.end}/${size}`);
  const stream = audioStore(note.audioStorage as AudioStorage).read({ userId, transcriptionId: id }, part);
  const body = Readable.toWeb(Readable.from(stream)) as ReadableStream<Uint8Array>;
  return new Response(body, { status: range ? 206 : 200, headers });
}

function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.trim() === "*" || header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}
