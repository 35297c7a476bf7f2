import type { FFFSType, FFmpeg } from "@ffmpeg/ffmpeg";
import { FFMPEG_FILES } from "@/app/_lib/recording/generated/ffmpeg-files.ts";
import { nextLiveCut, parseSilences, parseWrittenSeconds, splitPoints } from "@/app/_lib/recording/split-points.ts";

// Turns a recording into compact mono speech audio (Opus, 16 kHz, 32 kbit/s) with ffmpeg.wasm and
// splits long ones at silences. @ffmpeg/ffmpeg's FFmpeg class runs @ffmpeg/core (single-threaded,
// so no cross-origin isolation) in its own worker, so the page stays responsive. The class, its
// worker, the core and the wasm are served from this site (public/ffmpeg/, built by
// scripts/build-web-assets.mjs), never a CDN; the class is imported from there, not bundled, as
// Turbopack cannot build it (docs/architecture.md, "Converting audio in the browser").
// Anything that goes wrong (an old browser, the core not cached while offline) falls back to
// uploading the recording as it is (prepare-upload.ts).

export const CHUNK_SECONDS = 60;

export type PreparedPart = { blob: Blob; start: number; end: number };
export type PreprocessProgress = { stage: "loading" | "converting" | "splitting"; seconds: number };

const ENCODE = ["-vn", "-ac", "1", "-ar", "16000", "-af", "silencedetect=noise=-35dB:d=0.4", "-c:a", "libopus", "-b:a", "32k", "-application", "audio"];

export async function preprocessAudio(blob: Blob, onProgress: (p: PreprocessProgress) => void = () => {}): Promise<PreparedPart[]> {
  onProgress({ stage: "loading", seconds: 0 });
  return withFFmpeg(async (ffmpeg) => {
    const input = await openInput(ffmpeg, blob);
    let converted: string[];
    try {
      converted = await run(ffmpeg, ["-i", input.path, ...ENCODE, "speech.ogg"], (seconds) => onProgress({ stage: "converting", seconds }));
    } finally {
      await input.close();
    }
    const duration = parseWrittenSeconds(converted);
    const cuts = splitPoints(duration, parseSilences(converted, duration), { chunkSeconds: CHUNK_SECONDS });
    if (!cuts.length) return [{ blob: await take(ffmpeg, "speech.ogg"), start: 0, end: duration }];
    const bounds = [0, ...cuts, duration];
    const parts: PreparedPart[] = [];
    for (let i = 0; i < bounds.length - 1; i++) {
      onProgress({ stage: "splitting", seconds: bounds[i] });
      const range = ["-ss", String(bounds[i]), ...(i < bounds.length - 2 ? ["-to", String(bounds[i + 1])] : [])];
      await run(ffmpeg, ["-i", "speech.ogg", ...range, "-c", "copy", "part.ogg"]);
      parts.push({ blob: await take(ffmpeg, "part.ogg"), start: bounds[i], end: bounds[i + 1] });
    }
    await ffmpeg.deleteFile("speech.ogg");
    return parts;
  });
}

/** Up to this size a recording is copied into ffmpeg's memory; a larger one is read where it is. */
const COPIED_UP_TO_BYTES = 512_000_000;

/**
 * The recording as a file ffmpeg reads: copied into ffmpeg's memory (a 300 MB file converted in 43 s
 * here), or, over COPIED_UP_TO_BYTES, mounted (WORKERFS reads the Blob where it is, a small slice at
 * a time: 115 s for the same file, but ffmpeg's memory, capped at 2–4 GB, holds no copy of it).
 */
async function openInput(ffmpeg: FFmpeg, blob: Blob): Promise<{ path: string; close: () => Promise<void> }> {
  if (blob.size <= COPIED_UP_TO_BYTES) return copyInput(ffmpeg, blob);
  try {
    await ffmpeg.createDir("/recording");
    // A string enum of @ffmpeg/ffmpeg, whose class is loaded from this site, not bundled (above).
    await ffmpeg.mount("WORKERFS" as unknown as FFFSType, { blobs: [{ name: "audio", data: blob }] }, "/recording");
    return {
      path: "/recording/audio",
      close: async () => {
        await ffmpeg.unmount("/recording");
        await ffmpeg.deleteDir("/recording");
      },
    };
  } catch {
    return copyInput(ffmpeg, blob);
  }
}

async function copyInput(ffmpeg: FFmpeg, blob: Blob): Promise<{ path: string; close: () => Promise<void> }> {
  await ffmpeg.writeFile("input", new Uint8Array(await blob.arrayBuffer()));
  return { path: "input", close: async () => void (await ffmpeg.deleteFile("input")) };
}

/** Recorded before live recordings: the parts of a recording were cut at pauses 30–60 s apart while it went on. */
export const LIVE_PART = { minSeconds: 30, maxSeconds: 60 };

/**
 * The next part of a recording still going on (`blob`: everything recorded so far), from `from`
 * seconds; null when it is too early to cut. `final`: the recording stopped, the rest is the part.
 * Only the audio after `from` is decoded and encoded (ffmpeg seeks there exactly), so each step
 * costs at most about a part, however long the recording has become.
 */
export async function cutRecording(blob: Blob, from: number, final: boolean): Promise<{ part: PreparedPart | null; duration: number }> {
  const data = new Uint8Array(await blob.arrayBuffer());
  return withFFmpeg(async (ffmpeg) => {
    await ffmpeg.writeFile("live-input", data);
    const converted = await run(ffmpeg, [...(from > 0 ? ["-ss", String(from)] : []), "-i", "live-input", ...ENCODE, "live-tail.ogg"]);
    await ffmpeg.deleteFile("live-input");
    const duration = parseWrittenSeconds(converted);
    const cut = final ? duration : nextLiveCut(duration, parseSilences(converted, duration), LIVE_PART);
    // The part is all of the tail (Stop), or the tail up to the cut, or none yet.
    const whole = cut !== null && cut >= duration;
    if (cut !== null && cut > 0 && !whole) await run(ffmpeg, ["-i", "live-tail.ogg", "-to", String(cut), "-c", "copy", "live-part.ogg"]);
    const part = cut === null || cut <= 0 ? null : { blob: await take(ffmpeg, whole ? "live-tail.ogg" : "live-part.ogg"), start: from, end: from + Math.min(cut, duration) };
    if (!part || !whole) await ffmpeg.deleteFile("live-tail.ogg");
    return { part, duration: from + duration };
  });
}

let loaded: Promise<FFmpeg> | undefined;
let queue: Promise<unknown> = Promise.resolve();

/**
 * Loads the audio tools (ffmpeg.wasm, ~30 MB of WebAssembly from this site) now, so a file picked
 * later is converted at once. Once per page; a failure only means they load when needed.
 */
export function warmUpAudioTools(): void {
  loadFFmpeg().catch(() => {});
}

function loadFFmpeg(): Promise<FFmpeg> {
  loaded ??= (async () => {
    const url = (file: string) => new URL(file, location.href).href;
    const classWorkerURL = url(FFMPEG_FILES.classWorker);
    // The FFmpeg class does not listen for its worker's "error" event: a worker script that cannot
    // be fetched (offline, never kept) would leave load() waiting for ever. Asked first, it fails.
    const script = await fetch(classWorkerURL);
    if (!script.ok) throw new Error(`the audio worker could not be fetched (${script.status})`);
    const { FFmpeg } = (await import(/* webpackIgnore: true */ url(FFMPEG_FILES.classModule))) as typeof import("@ffmpeg/ffmpeg");
    const ffmpeg = new FFmpeg();
    try {
      await ffmpeg.load({ classWorkerURL, coreURL: url(FFMPEG_FILES.core), wasmURL: url(FFMPEG_FILES.wasm) });
    } catch (err) {
      ffmpeg.terminate();
      throw err instanceof Error ? err : new Error(String(err));
    }
    return ffmpeg;
  })();
  loaded.catch(() => (loaded = undefined)); // asked again later: a failure is not final
  return loaded;
}

/**
 * One job at a time: ffmpeg.wasm's file system and exec are not reentrant. A job that fails ends
 * the worker (and frees what it left in ffmpeg's memory); the next job loads a fresh one.
 */
function withFFmpeg<T>(job: (ffmpeg: FFmpeg) => Promise<T>): Promise<T> {
  const result = queue.then(async () => {
    const ffmpeg = await loadFFmpeg();
    try {
      return await job(ffmpeg);
    } catch (err) {
      loaded = undefined;
      ffmpeg.terminate();
      throw err instanceof Error ? err : new Error(String(err));
    }
  });
  queue = result.catch(() => {});
  return result;
}

/** Runs ffmpeg; answers its log lines (the silences and written time are read from them). */
async function run(ffmpeg: FFmpeg, args: string[], onSeconds?: (seconds: number) => void): Promise<string[]> {
  const log: string[] = [];
  const onLog = ({ message }: { message: string }) => log.push(message);
  const onProgress = ({ time }: { time: number }) => onSeconds?.(time / 1_000_000);
  ffmpeg.on("log", onLog);
  ffmpeg.on("progress", onProgress);
  try {
    const code = await ffmpeg.exec(args);
    if (code !== 0) throw new Error(`ffmpeg failed (${code}): ${log.slice(-3).join(" / ")}`);
    return log;
  } finally {
    ffmpeg.off("log", onLog);
    ffmpeg.off("progress", onProgress);
  }
}

/** A file ffmpeg wrote, as a Blob, removed from its memory. */
async function take(ffmpeg: FFmpeg, name: string): Promise<Blob> {
  const data = await ffmpeg.readFile(name);
  await ffmpeg.deleteFile(name);
  return new Blob([data as Uint8Array<ArrayBuffer>], { type: "audio/ogg" });
}
