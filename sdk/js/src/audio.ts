// Audio inputs → a Blob that can be sent (and re-sent on a retry) as the multipart `audio` field.

/** A file path (Node), bytes, a Blob or File (browsers and Node), or a stream of bytes. */
export type AudioInput = string | URL | Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

type NodeFs = { openAsBlob(path: string | URL): Promise<Blob> };

async function nodeFs(): Promise<NodeFs> {
  // A computed specifier keeps browser bundlers from trying to resolve node:fs.
  const specifier = ["node", "fs"].join(":");
  try {
    return (await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)) as NodeFs;
  } catch {
    throw new TypeError("Audio given as a path needs Node.js; in a browser pass a Blob or File.");
  }
}

/** The audio as a Blob, with the file name to send; a stream is read into memory once, so a retry can send it again. */
export async function prepareAudio(audio: AudioInput, filename?: string): Promise<{ blob: Blob; filename: string }> {
  if (typeof audio === "string" || audio instanceof URL) {
    const blob = await (await nodeFs()).openAsBlob(audio); // file-backed: not read into memory
    const path = typeof audio === "string" ? audio : decodeURIComponent(audio.pathname);
    return { blob, filename: filename ?? (path.split(/[\\/]/).pop() || "audio") };
  }
  if (audio instanceof Blob) {
    const name = (audio as Blob & { name?: unknown }).name;
    return { blob: audio, filename: filename ?? (typeof name === "string" && name ? name : "audio") };
  }
  if (audio instanceof ArrayBuffer || ArrayBuffer.isView(audio)) {
    return { blob: new Blob([audio as BlobPart]), filename: filename ?? "audio" };
  }
  if (typeof ReadableStream !== "undefined" && audio instanceof ReadableStream) {
    return { blob: await new Response(audio).blob(), filename: filename ?? "audio" };
  }
  if (audio && Symbol.asyncIterator in audio) {
    const chunks: Uint8Array[] = [];
    for await (const chunk of audio) chunks.push(chunk);
    return { blob: new Blob(chunks as BlobPart[]), filename: filename ?? "audio" };
  }
  throw new TypeError("audio must be a file path, bytes, a Blob/File, or a stream of bytes.");
}
