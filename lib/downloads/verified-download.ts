import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, statSync } from "node:fs";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { isProcessAlive } from "@/lib/process-alive.ts";

// A large file from the web (a model's weights), resumable and checked: streamed into
// `.<file>.part` beside its destination, its digest checked, then renamed into place. An
// interrupted download keeps its partial file and the next call resumes it with an HTTP Range
// request; a file that fails the check is discarded. One download of a file at a time (a lock
// file beside the partial one). Whisper's models and the local writer's model come this way.

export class ModelDownloadError extends Error {
  /** The reason in plain words, for status a person or /api/health shows: no URL, path or number. */
  readonly plain: string;
  constructor(message: string, plain: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ModelDownloadError";
    this.plain = plain;
  }
}

/** Why a download failed, in words fit for a status anyone may read (the message, with its URL and paths, is for the log). */
export function plainDownloadFailure(err: unknown): string {
  return err instanceof ModelDownloadError ? err.plain : "the download failed";
}

/** A mirror's URL as messages show it: no user, password, query or fragment (where tokens travel). */
export function shownUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/** fetch refuses a URL with credentials in it: a mirror's user and password go as Basic authorization. */
function requestOf(url: string): { href: string; headers: Record<string, string> } {
  const parsed = new URL(url);
  if (!parsed.username && !parsed.password) return { href: parsed.href, headers: {} };
  const basic = Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString("base64");
  parsed.username = parsed.password = "";
  return { href: parsed.href, headers: { authorization: `Basic ${basic}` } };
}

export type VerifiedDownloadOptions = {
  url: string;
  destination: string;
  algorithm: "sha1" | "sha256";
  /** The digest the file must have, hex. */
  expected: string;
  /** What someone offline can do instead (a sentence), for the error message. */
  byHand: string;
  /** Time allowed until the server answers with headers; offline, this is how long it takes to fail. */
  connectTimeoutMs?: number;
  /** Time allowed without receiving a byte once the body streams. */
  idleTimeoutMs?: number;
  force?: boolean;
  onProgress?: (received: number, total: number | null) => void;
};

export type VerifiedDownloadResult = { path: string; bytes: number; digest: string; skipped: boolean };

const ALGORITHM_NAME = { sha1: "SHA-1", sha256: "SHA-256" } as const;

export async function downloadVerified(options: VerifiedDownloadOptions): Promise<VerifiedDownloadResult> {
  const destination = path.resolve(options.destination);
  if (!options.force && existsSync(destination)) {
    return { path: destination, bytes: statSync(destination).size, digest: "", skipped: true };
  }
  const file = path.basename(destination);
  const partial = path.join(path.dirname(destination), `.${file}.part`);
  await mkdir(path.dirname(destination), { recursive: true });
  const release = await lockDownload(`${partial}.lock`, file);
  try {
    return await download(options, { file, destination, partial });
  } finally {
    await release();
  }
}

type Target = { file: string; destination: string; partial: string };

async function download(options: VerifiedDownloadOptions, { file, destination, partial }: Target): Promise<VerifiedDownloadResult> {
  const { url, algorithm, expected, connectTimeoutMs = 10_000, idleTimeoutMs = 60_000, onProgress } = options;
  const resumeFrom = options.force ? 0 : await stat(partial).then((s) => s.size, () => 0);

  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(new Error(`no answer within ${connectTimeoutMs / 1000} s`)), connectTimeoutMs);
  let response: Response;
  try {
    const request = requestOf(url);
    const headers: Record<string, string> = { ...request.headers, ...(resumeFrom ? { range: `bytes=${resumeFrom}-` } : {}) };
    response = await fetch(request.href, { signal: controller.signal, redirect: "follow", headers });
  } catch (err) {
    clearTimeout(timer);
    throw new ModelDownloadError(`Cannot download ${file} from ${shownUrl(url)}: ${describe(err)}. Is this machine offline? ${options.byHand}`, "the server it comes from could not be reached", { cause: err });
  }
  clearTimeout(timer);
  // 206 continues the partial file; 416 means it is already whole; any other success starts over.
  const resumed = response.status === 206 && rangeStart(response) === resumeFrom;
  const complete = response.status === 416 && resumeFrom > 0;
  if ((!response.ok && !complete) || (response.status === 206 && !resumed) || (!response.body && !complete)) {
    await response.body?.cancel();
    throw new ModelDownloadError(`Cannot download ${file}: ${shownUrl(url)} answered ${response.status} ${response.statusText}.`, "the server it comes from refused it");
  }

  const offset = resumed || complete ? resumeFrom : 0;
  const length = Number(response.headers.get("content-length"));
  const total = complete ? resumeFrom : length ? length + offset : null;
  const hash = createHash(algorithm);
  let received = offset;
  const idle = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new Error(`no data for ${idleTimeoutMs / 1000} s`)), idleTimeoutMs);
  };
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      idle();
      hash.update(chunk);
      received += chunk.length;
      onProgress?.(received, total);
      callback(null, chunk);
    },
  });
  try {
    if (offset) await pipeline(createReadStream(partial, { end: offset - 1 }), async (chunks: AsyncIterable<Buffer>) => {
      for await (const chunk of chunks) hash.update(chunk);
    });
    if (complete) await response.body?.cancel();
    else {
      idle();
      const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
      await pipeline(body, meter, createWriteStream(partial, { flags: offset ? "a" : "w" }));
    }
    clearTimeout(timer);
    const digest = hash.digest("hex");
    if (digest !== expected.toLowerCase()) {
      await rm(partial, { force: true });
      throw new ModelDownloadError(
        `${ALGORITHM_NAME[algorithm]} mismatch for ${file}: expected ${expected}, got ${digest} (${received} bytes); the download is corrupt or not the official file, so it was discarded.`,
        "the file that arrived was damaged or not the expected one, so it was discarded",
      );
    }
    await rename(partial, destination);
    return { path: destination, bytes: received, digest, skipped: false };
  } catch (err) {
    clearTimeout(timer);
    if (err instanceof ModelDownloadError) throw err;
    // The partial file stays: the next attempt resumes where this one stopped.
    throw new ModelDownloadError(`Download of ${file} from ${shownUrl(url)} failed after ${received} bytes: ${describe(err)}.`, "the download stopped before the end; it goes on from there next time", { cause: err });
  }
}

/** One download of a file at a time (the launcher's and `npm run model:download` share the partial file). */
async function lockDownload(lockFile: string, file: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockFile, String(process.pid), { flag: "wx" });
      return () => rm(lockFile, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = Number(await readFile(lockFile, "utf8").catch(() => ""));
      if (holder && holder !== process.pid && isProcessAlive(holder)) {
        throw new ModelDownloadError(`${file} is already being downloaded by process ${holder}; wait for it to finish.`, "another process is downloading it");
      }
      await rm(lockFile, { force: true }); // left by a process that is gone
    }
  }
  throw new ModelDownloadError(`Could not lock ${lockFile}.`, "the models folder could not be written");
}

/** The first byte of a 206 answer ("Content-Range: bytes 1000-1999/2000"), or -1. */
function rangeStart(response: Response): number {
  const match = /^bytes (\d+)-/.exec(response.headers.get("content-range") ?? "");
  return match ? Number(match[1]) : -1;
}


function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // fetch reports "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND, …) in `cause`.
  const cause = err.cause instanceof Error ? err.cause : undefined;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (err.name === "AbortError" || err.name === "TimeoutError") return err.message;
  return cause ? `${cause.message}${code && !cause.message.includes(code) ? ` (${code})` : ""}` : err.message;
}
