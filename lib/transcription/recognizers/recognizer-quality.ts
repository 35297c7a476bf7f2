import path from "node:path";
import { env } from "@/lib/env.ts";
import { PocketsphinxEngine } from "@/lib/transcription/recognizers/pocketsphinx.ts";
import { readDownloadStatus } from "@/lib/downloads/download-status.ts";
import { resolveWhisperModel } from "@/lib/transcription/recognizers/models.ts";

// Which recognizer new recordings get, in the terms people use: accurate (whisper or an
// OpenAI-compatible server), basic (PocketSphinx), or none installed; plus the background
// download of the accurate one, when it is under way.

export type RecognizerQuality = {
  quality: "accurate" | "basic" | "unavailable";
  model_download: {
    model: string;
    state: "downloading" | "waiting";
    received_bytes: number;
    total_bytes: number | null;
    percent: number | null;
    retry_at: string | null;
  } | null;
};

function whisperModelPresent(): boolean {
  const { WHISPER_MODEL, MODELS_DIR } = env();
  try {
    return resolveWhisperModel({ WHISPER_MODEL, MODELS_DIR }) !== null;
  } catch {
    return false;
  }
}

function quality(): RecognizerQuality["quality"] {
  const config = env();
  const basic = PocketsphinxEngine.isInstalled(config.POCKETSPHINX_MODEL_DIR);
  switch (config.TRANSCRIBE_ENGINE) {
    case "openai":
      return "accurate";
    case "whisper":
      return whisperModelPresent() ? "accurate" : "unavailable";
    case "pocketsphinx":
      return basic ? "basic" : "unavailable";
    case "auto":
      return whisperModelPresent() ? "accurate" : basic ? "basic" : "unavailable";
  }
}

export function recognizerQuality(): RecognizerQuality {
  const current = quality();
  const status = current === "accurate" ? null : readDownloadStatus(path.resolve(env().MODELS_DIR));
  return {
    quality: current,
    model_download: status && {
      model: status.model,
      state: status.state,
      received_bytes: status.received_bytes,
      total_bytes: status.total_bytes,
      percent: status.total_bytes ? Math.floor((status.received_bytes / status.total_bytes) * 100) : null,
      retry_at: status.retry_at ?? null,
    },
  };
}

/** One line for people, e.g. "Basic (downloading the accurate recognizer: 42 %)". */
export function describeRecognizerQuality({ quality, model_download: download }: RecognizerQuality): string {
  const label = { accurate: "Accurate", basic: "Basic", unavailable: "Not available (no speech recognizer installed)" }[quality];
  if (!download) return label;
  if (download.state === "waiting") return `${label} (the accurate recognizer could not be downloaded yet; trying again later)`;
  return `${label} (downloading the accurate recognizer${download.percent === null ? "" : `: ${download.percent} %`})`;
}
