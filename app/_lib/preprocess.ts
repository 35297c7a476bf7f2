import type { PreprocessMessage } from "@/workers/audio-preprocess.ts";

// The page's side of the ffmpeg.wasm worker. Anything that goes wrong there (an old browser, the
// core not cached while offline) falls back to uploading the recording as it is.

export const CHUNK_SECONDS = 60;

export type PreparedPart = { blob: Blob; start: number; end: number };
export type PreprocessProgress = { stage: "loading" | "converting" | "splitting"; seconds: number };

let worker: Worker | undefined;

export async function preprocessAudio(blob: Blob, onProgress: (p: PreprocessProgress) => void = () => {}): Promise<PreparedPart[]> {
  worker ??= new Worker("/ffmpeg/audio-worker.js", { type: "module", name: "audio-preprocess" });
  const w = worker;
  const id = crypto.randomUUID();
  const data = await blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const onMessage = (event: MessageEvent<PreprocessMessage>) => {
      const message = event.data;
      if (message.id !== id) return;
      if (message.type === "progress") return onProgress({ stage: message.stage, seconds: message.seconds });
      w.removeEventListener("message", onMessage);
      w.removeEventListener("error", onError);
      if (message.type === "error") return reject(new Error(message.message));
      resolve(message.parts.map((p) => ({ blob: new Blob([p.data], { type: "audio/ogg" }), start: p.start, end: p.end })));
    };
    const onError = (event: ErrorEvent) => {
      w.removeEventListener("message", onMessage);
      worker = undefined;
      reject(new Error(event.message || "the audio worker could not start"));
    };
    w.addEventListener("message", onMessage);
    w.addEventListener("error", onError);
    w.postMessage({ id, data, chunkSeconds: CHUNK_SECONDS }, [data]);
  });
}
