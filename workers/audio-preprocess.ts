// Web Worker (bundled to public/ffmpeg/audio-worker.js): turns a recording into compact mono
// speech audio (Opus, 16 kHz, 32 kbit/s) with ffmpeg.wasm and splits long ones at silences.
// @ffmpeg/core is loaded from this site (public/ffmpeg/), never from a CDN; single-threaded, so
// no cross-origin isolation is needed. It runs here so the page stays responsive.
import { nextLiveCut, parseSilences, parseWrittenSeconds, splitPoints } from "@/app/_lib/recording/split-points.ts";

type FFmpegCore = {
  FS: { writeFile(path: string, data: Uint8Array): void; readFile(path: string): Uint8Array; unlink(path: string): void };
  exec(...args: string[]): number;
  reset(): void;
  setLogger(logger: (entry: { type: string; message: string }) => void): void;
  setProgress(handler: (progress: { progress: number; time: number }) => void): void;
};

export type PreprocessRequest =
  | { id: string; type?: "whole"; data: ArrayBuffer; chunkSeconds: number }
  /** Load the core now (Record opened), so that a file picked later starts at once. */
  | { id: string; type: "load" }
  /** While recording: the audio so far; cut the next part from `from` s (or all the rest when `final`). */
  | { id: string; type: "cut"; data: ArrayBuffer; from: number; final: boolean; minSeconds: number; maxSeconds: number };
export type PreprocessMessage =
  | { id: string; type: "progress"; stage: "loading" | "converting" | "splitting"; seconds: number }
  | { id: string; type: "done"; duration: number; parts: { data: ArrayBuffer; start: number; end: number }[] }
  | { id: string; type: "error"; message: string };

const scope = self as unknown as {
  location: Location;
  onmessage: ((event: MessageEvent<PreprocessRequest>) => void) | null;
  postMessage(message: PreprocessMessage, transfer?: Transferable[]): void;
};

let core: Promise<FFmpegCore> | undefined;
let log: string[] = [];
let onTime: (seconds: number) => void = () => {};

function loadCore(): Promise<FFmpegCore> {
  core ??= (async () => {
    const url = new URL("./ffmpeg-core.js", scope.location.href).href;
    const { default: createCore } = (await import(/* webpackIgnore: true */ url)) as { default: (options: object) => Promise<FFmpegCore> };
    const ffmpeg = await createCore({});
    ffmpeg.setLogger(({ message }) => log.push(message));
    ffmpeg.setProgress(({ time }) => onTime(time / 1_000_000));
    return ffmpeg;
  })();
  core.catch(() => (core = undefined));
  return core;
}

function run(ffmpeg: FFmpegCore, args: string[]): string[] {
  log = [];
  const code = ffmpeg.exec(...args);
  ffmpeg.reset();
  if (code !== 0) throw new Error(`ffmpeg failed (${code}): ${log.slice(-3).join(" / ")}`);
  return log;
}

/**
 * One part of a recording still going on: only the audio after `from` is decoded and encoded
 * (ffmpeg seeks there exactly), so each step costs at most about a part, however long the
 * recording has become. Answers "done" with one part, or none when it is too early to cut.
 */
async function cutLive({ id, data, from, final, minSeconds, maxSeconds }: Extract<PreprocessRequest, { type: "cut" }>): Promise<void> {
  const ffmpeg = await loadCore();
  ffmpeg.FS.writeFile("live-input", new Uint8Array(data));
  onTime = () => {};
  const converted = run(ffmpeg, [
    ...(from > 0 ? ["-ss", String(from)] : []), "-i", "live-input", "-vn", "-ac", "1", "-ar", "16000",
    "-af", "silencedetect=noise=-35dB:d=0.4",
    "-c:a", "libopus", "-b:a", "32k", "-application", "audio", "live-tail.ogg",
  ]);
  ffmpeg.FS.unlink("live-input");
  const duration = parseWrittenSeconds(converted);
  const cut = final ? duration : nextLiveCut(duration, parseSilences(converted, duration), { minSeconds, maxSeconds });
  const parts: { data: ArrayBuffer; start: number; end: number }[] = [];
  if (cut !== null && cut > 0) {
    if (cut >= duration) {
      parts.push({ data: ffmpeg.FS.readFile("live-tail.ogg").slice().buffer, start: from, end: from + duration });
    } else {
      run(ffmpeg, ["-i", "live-tail.ogg", "-to", String(cut), "-c", "copy", "live-part.ogg"]);
      parts.push({ data: ffmpeg.FS.readFile("live-part.ogg").slice().buffer, start: from, end: from + cut });
      ffmpeg.FS.unlink("live-part.ogg");
    }
  }
  ffmpeg.FS.unlink("live-tail.ogg");
  scope.postMessage({ id, type: "done", duration: from + duration, parts }, parts.map((p) => p.data));
}

async function preprocess(request: PreprocessRequest): Promise<void> {
  if (request.type === "cut") return cutLive(request);
  if (request.type === "load") {
    await loadCore();
    return scope.postMessage({ id: request.id, type: "done", duration: 0, parts: [] });
  }
  const { id, data, chunkSeconds } = request;
  const progress = (stage: "loading" | "converting" | "splitting", seconds = 0) => scope.postMessage({ id, type: "progress", stage, seconds });
  progress("loading");
  const ffmpeg = await loadCore();
  ffmpeg.FS.writeFile("input", new Uint8Array(data));
  onTime = (seconds) => progress("converting", seconds);
  const converted = run(ffmpeg, [
    "-i", "input", "-vn", "-ac", "1", "-ar", "16000",
    "-af", "silencedetect=noise=-35dB:d=0.4",
    "-c:a", "libopus", "-b:a", "32k", "-application", "audio", "speech.ogg",
  ]);
  ffmpeg.FS.unlink("input");
  const duration = parseWrittenSeconds(converted);
  const cuts = splitPoints(duration, parseSilences(converted, duration), { chunkSeconds });
  const bounds = [0, ...cuts, duration];
  const parts: { data: ArrayBuffer; start: number; end: number }[] = [];
  if (!cuts.length) {
    parts.push({ data: ffmpeg.FS.readFile("speech.ogg").slice().buffer, start: 0, end: duration });
  } else {
    for (let i = 0; i < bounds.length - 1; i++) {
      progress("splitting", bounds[i]);
      const name = `part-${i}.ogg`;
      const range = ["-ss", String(bounds[i]), ...(i < bounds.length - 2 ? ["-to", String(bounds[i + 1])] : [])];
      run(ffmpeg, ["-i", "speech.ogg", ...range, "-c", "copy", name]);
      parts.push({ data: ffmpeg.FS.readFile(name).slice().buffer, start: bounds[i], end: bounds[i + 1] });
      ffmpeg.FS.unlink(name);
    }
  }
  ffmpeg.FS.unlink("speech.ogg");
  scope.postMessage({ id, type: "done", duration, parts }, parts.map((p) => p.data));
}

// One job at a time: ffmpeg.wasm's file system and exec are not reentrant.
let queue = Promise.resolve();
scope.onmessage = (event) => {
  queue = queue.then(() =>
    preprocess(event.data).catch((err: unknown) => scope.postMessage({ id: event.data.id, type: "error", message: (err as Error).message })),
  );
};
