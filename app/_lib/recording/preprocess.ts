import type { PreprocessMessage, PreprocessRequest } from "@/workers/audio-preprocess.ts";

// The page's side of the ffmpeg.wasm worker. Anything that goes wrong there (an old browser, the
// core not cached while offline) falls back to uploading the recording as it is.

export const CHUNK_SECONDS = 60;

export type PreparedPart = { blob: Blob; start: number; end: number };
export type PreprocessProgress = { stage: "loading" | "converting" | "splitting"; seconds: number };

let worker: Worker | undefined;
let warming: Promise<unknown> | undefined;

export async function preprocessAudio(blob: Blob, onProgress: (p: PreprocessProgress) => void = () => {}): Promise<PreparedPart[]> {
  const data = await blob.arrayBuffer();
  return (await ask({ id: crypto.randomUUID(), data, chunkSeconds: CHUNK_SECONDS }, onProgress)).parts;
}

/**
 * Loads the audio tools (ffmpeg.wasm, ~30 MB of WebAssembly from this site) in the worker now, so a
 * file picked later is converted at once. Once per page; a failure only means they load when needed.
 */
export function warmUpAudioTools(): void {
  if (warming) return;
  warming = ask({ id: crypto.randomUUID(), type: "load" }).catch(() => {
    warming = undefined; // asked again later (the worker restarts): a failure is not final
  });
}

/** Recorded before live recordings: the parts of a recording were cut at pauses 30–60 s apart while it went on. */
export const LIVE_PART = { minSeconds: 30, maxSeconds: 60 };

/**
 * The next part of a recording still going on (`blob`: everything recorded so far), from `from`
 * seconds; null when it is too early to cut. `final`: the recording stopped, the rest is the part.
 */
export async function cutRecording(blob: Blob, from: number, final: boolean): Promise<{ part: PreparedPart | null; duration: number }> {
  const data = await blob.arrayBuffer();
  const { parts, duration } = await ask({ id: crypto.randomUUID(), type: "cut", data, from, final, ...LIVE_PART });
  return { part: parts[0] ?? null, duration };
}

function ask(request: PreprocessRequest, onProgress: (p: PreprocessProgress) => void = () => {}): Promise<{ parts: PreparedPart[]; duration: number }> {
  worker ??= new Worker("/ffmpeg/audio-worker.js", { type: "module", name: "audio-preprocess" });
  const w = worker;
  return new Promise((resolve, reject) => {
    const onMessage = (event: MessageEvent<PreprocessMessage>) => {
      const message = event.data;
      if (message.id !== request.id) return;
      if (message.type === "progress") return onProgress({ stage: message.stage, seconds: message.seconds });
      w.removeEventListener("message", onMessage);
      w.removeEventListener("error", onError);
      if (message.type === "error") return reject(new Error(message.message));
      resolve({
        duration: message.duration,
        parts: message.parts.map((p) => ({ blob: new Blob([p.data], { type: "audio/ogg" }), start: p.start, end: p.end })),
      });
    };
    const onError = (event: ErrorEvent) => {
      w.removeEventListener("message", onMessage);
      worker = undefined;
      reject(new Error(event.message || "the audio worker could not start"));
    };
    w.addEventListener("message", onMessage);
    w.addEventListener("error", onError);
    w.postMessage(request, "data" in request ? [request.data] : []);
  });
}
