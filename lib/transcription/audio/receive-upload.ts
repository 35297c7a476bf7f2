import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { ApiError } from "@/lib/http/errors.ts";
import { unsafeTextPath } from "@/lib/http/parse.ts";
import { detectAudioFileFormat, type AudioFormat } from "@/lib/transcription/audio/audio-format.ts";

export type Upload = {
  /** The audio exactly as sent, on disk. */
  audioPath: string;
  audioBytes: number;
  audioSha256: string;
  /** The container, sniffed from the bytes; null when it is not audio this service decodes. */
  format: AudioFormat | null;
  fields: Record<string, string>;
  /** A private temporary directory for this request; removed by cleanup(). */
  workDir: string;
  cleanup(): Promise<void>;
};

const MAX_FIELD_BYTES = 1024 * 1024;
const MAX_FIELDS = 16;

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * Streams a multipart/form-data request to disk: the audio file goes straight to a temporary
 * file (hashed on the way), never held in memory; text fields are collected. Any failure removes
 * what was written.
 */
export async function receiveUpload(
  req: Request,
  { fileField, maxBytes, textFields }: { fileField: string; maxBytes: number; textFields: readonly string[] },
): Promise<Upload> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    throw new ApiError(
      "unsupported_media_type",
      `Send the request as multipart/form-data with the recording in the field "${fileField}".`,
    );
  }
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > maxBytes + MAX_FIELD_BYTES * 2) {
    throw new ApiError("payload_too_large", `The upload is larger than the limit of ${megabytes(maxBytes)}.`);
  }
  if (!req.body) throw new ApiError("missing_audio", `The request has no body; send the recording in the field "${fileField}".`);

  const workDir = await mkdtemp(path.join(tmpdir(), "voicedraft-"));
  const cleanup = () => rm(workDir, { recursive: true, force: true });
  try {
    return { ...(await parse(req, type, { fileField, maxBytes, textFields, workDir })), workDir, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/**
 * A recording already in memory (an MCP call's, decoded from base64) as an upload: written to a
 * private temporary file once, hashed and sniffed as a received one is, so it takes the same path.
 */
export async function uploadOfBytes(bytes: Uint8Array, fields: Record<string, string> = {}): Promise<Upload> {
  const workDir = await mkdtemp(path.join(tmpdir(), "voicedraft-"));
  const cleanup = () => rm(workDir, { recursive: true, force: true });
  try {
    const audioPath = path.join(workDir, "upload");
    await writeFile(audioPath, bytes);
    const format = bytes.byteLength ? await detectAudioFileFormat(audioPath) : null;
    const audioSha256 = createHash("sha256").update(bytes).digest("hex");
    return { audioPath, audioBytes: bytes.byteLength, audioSha256, format, fields, workDir, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

async function parse(
  req: Request,
  contentType: string,
  { fileField, maxBytes, textFields, workDir }: { fileField: string; maxBytes: number; textFields: readonly string[]; workDir: string },
): Promise<Omit<Upload, "workDir" | "cleanup">> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: { fileSize: maxBytes, files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: MAX_FIELDS + 1 },
    });
  } catch (err) {
    throw new ApiError("invalid_multipart", `The multipart body cannot be read: ${(err as Error).message}.`);
  }
  const audioPath = path.join(workDir, "upload");
  const fields: Record<string, string> = {};
  const hash = createHash("sha256");
  let audioBytes = 0;
  let sawAudio = false;
  let failure: ApiError | undefined;
  const writes: Promise<void>[] = [];
  const fail = (error: ApiError) => {
    failure ??= error;
  };

  parser.on("file", (name, stream) => {
    if (name !== fileField || sawAudio) {
      stream.resume();
      if (name === "file" && fileField === "audio") {
        fail(new ApiError("missing_audio", 'The recording must be sent in the form field "audio", not "file".'));
      } else if (name === fileField) {
        fail(new ApiError("validation_failed", `Send exactly one file in the field "${fileField}".`));
      } else {
        fail(new ApiError("validation_failed", `Unexpected file field "${name}"; the recording goes in "${fileField}".`));
      }
      return;
    }
    sawAudio = true;
    stream.on("data", (chunk: Buffer) => {
      audioBytes += chunk.length;
      hash.update(chunk);
    });
    stream.on("limit", () =>
      fail(new ApiError("payload_too_large", `The audio is larger than the limit of ${megabytes(maxBytes)}.`)),
    );
    writes.push(pipeline(stream, createWriteStream(audioPath)));
  });
  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) {
      fail(new ApiError("payload_too_large", `The field "${name}" is longer than ${megabytes(MAX_FIELD_BYTES)}.`));
    } else if (name === "file" && fileField === "audio") {
      fail(new ApiError("missing_audio", 'The recording must be sent in the form field "audio", not "file".'));
    } else if (!textFields.includes(name)) {
      fail(
        new ApiError("validation_failed", `Unknown field "${name}"; the fields are ${[fileField, ...textFields].join(", ")}.`, {
          details: [{ path: name, message: "unknown field" }],
        }),
      );
    } else if (name in fields && !name.endsWith("[]")) {
      fail(new ApiError("validation_failed", `The field "${name}" is given more than once.`));
    } else if (unsafeTextPath(value) !== undefined) {
      const message = "must not contain NUL characters or unpaired surrogates";
      fail(new ApiError("validation_failed", `The field "${name}" ${message}.`, { details: [{ path: name, message }] }));
    } else {
      // A list field ("timestamp_granularities[]", as OpenAI's clients send it) may repeat: its values are joined with commas.
      fields[name] = name in fields ? `${fields[name]},${value}` : value;
    }
  });
  parser.on("filesLimit", () => fail(new ApiError("validation_failed", "Send one recording per request.")));
  parser.on("fieldsLimit", () => fail(new ApiError("validation_failed", "The request has too many fields.")));
  parser.on("partsLimit", () => fail(new ApiError("validation_failed", "The request has too many parts.")));

  try {
    await pipeline(Readable.fromWeb(req.body as import("node:stream/web").ReadableStream), parser);
    await Promise.all(writes);
  } catch (err) {
    // The file's own pipeline fails with the body (a client that left: "aborted"); it is settled
    // here, or its rejection would go unhandled.
    await Promise.allSettled(writes);
    if (failure) throw failure;
    throw new ApiError("invalid_multipart", `The multipart body cannot be read: ${(err as Error).message}.`);
  }
  if (failure) throw failure;
  if (!sawAudio) {
    throw new ApiError("missing_audio", `The form has no "${fileField}" file; send the recording in the field "${fileField}".`);
  }
  const format = audioBytes ? await detectAudioFileFormat(audioPath) : null;
  return { audioPath, audioBytes, audioSha256: hash.digest("hex"), format, fields };
}
