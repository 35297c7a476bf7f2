import path from "node:path";
import { env } from "@/lib/env.ts";
import { log } from "@/lib/log.ts";
import { reselectEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import { startModelAutoDownload, type AutoDownload } from "@/lib/transcription/recognizers/model-auto-download.ts";
import { resolveWhisperModel } from "@/lib/transcription/recognizers/models.ts";

// The automatic model download follows what people speak: English-only users keep base.en (the
// launcher's download); someone who sets another language gets the multilingual `base` fetched in
// the background, and new recordings use it once it is in MODELS_DIR.

export const MULTILINGUAL_MODEL = "base";

const state = globalThis as unknown as { voicedraftLanguageDownload?: AutoDownload };

/** The model to fetch for a language setting, or null when none is needed (or automatic downloads are off). */
export function modelWantedFor(language: string | null, config = env()): string | null {
  if (!language || language === "en") return null;
  if (config.TRANSCRIBE_ENGINE !== "auto" || !config.WHISPER_AUTO_DOWNLOAD || config.WHISPER_MODEL) return null;
  const installed = resolveWhisperModel({ MODELS_DIR: config.MODELS_DIR });
  const multilingual = installed && !/\.en(?:[-.]|$)/.test(path.basename(installed, ".bin").replace(/^ggml-/, ""));
  return multilingual ? null : MULTILINGUAL_MODEL;
}

/** Starts fetching the multilingual model for this language setting, once per process. */
export function ensureModelForLanguage(language: string | null): void {
  const name = modelWantedFor(language);
  if (!name || state.voicedraftLanguageDownload) return;
  const config = env();
  log.info("fetching a multilingual speech recognizer for a language setting", { model: name, language });
  state.voicedraftLanguageDownload = startModelAutoDownload({
    modelsDir: path.resolve(config.MODELS_DIR),
    baseUrl: config.WHISPER_MODEL_BASE_URL,
    name,
    onReady: () => reselectEngine(),
  });
}
