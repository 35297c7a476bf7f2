import { existsSync } from "node:fs";
import path from "node:path";
import { env } from "@/lib/env.ts";
import { log } from "@/lib/log.ts";
import { OpenAiEngine } from "@/lib/transcription/recognizers/openai.ts";
import { PocketsphinxEngine } from "@/lib/transcription/recognizers/pocketsphinx.ts";
import { EngineUnavailableError, type RecognitionEngine } from "@/lib/transcription/recognizers/types.ts";

// One engine per process, created on first use: whisper keeps its model loaded between requests.
// `voicedraftBasicFallback`: auto chose PocketSphinx for want of a model, so one appearing in
// MODELS_DIR (the launcher's background download) replaces it without a restart.
const state = globalThis as unknown as { voicedraftEngine?: Promise<RecognitionEngine>; voicedraftBasicFallback?: boolean; voicedraftReselect?: boolean };

// How long a replaced engine is kept for the recordings it is still recognizing (a piece is at most 600 s).
const REPLACED_ENGINE_GRACE_MS = 11 * 60_000;

const NONE_INSTALLED =
  "No speech recognizer is available. Install one: a whisper model (npm run model:download -- base.en, or set " +
  "WHISPER_MODEL), or PocketSphinx (apt-get install pocketsphinx pocketsphinx-en-us), or point " +
  "TRANSCRIBE_ENGINE=openai at an OpenAI-compatible server (OPENAI_BASE_URL, OPENAI_API_KEY).";

async function whisperModel(): Promise<string | null> {
  const { resolveWhisperModel } = await import("@/lib/transcription/recognizers/models.ts");
  const { WHISPER_MODEL, MODELS_DIR } = env();
  return resolveWhisperModel({ WHISPER_MODEL, MODELS_DIR });
}

async function createWhisper(modelPath: string): Promise<RecognitionEngine> {
  const { WhisperEngine } = await import("@/lib/transcription/recognizers/whisper.ts");
  return new WhisperEngine({ modelPath, maxQueue: env().TRANSCRIBE_QUEUE_MAX });
}

/** Where scripts/build-sphinx-stream.mjs builds it (npm install). */
const BUILT_SPHINX_STREAM = path.join(process.cwd(), "node_modules", ".cache", "voicedraft", "sphinx-stream");

/** The live stream's PocketSphinx with guesses (native/sphinx-stream.c): as set, else as built, else none. */
function sphinxStreamBinary(setting: string | undefined): string | null {
  if (setting !== undefined) return setting || null;
  return existsSync(BUILT_SPHINX_STREAM) ? BUILT_SPHINX_STREAM : null;
}

async function createEngine(): Promise<RecognitionEngine> {
  const config = env();
  const pocketsphinx = () =>
    new PocketsphinxEngine({
      binary: config.POCKETSPHINX_PATH,
      streamBinary: sphinxStreamBinary(config.POCKETSPHINX_STREAM_PATH),
      modelDir: config.POCKETSPHINX_MODEL_DIR,
      maxQueue: config.TRANSCRIBE_QUEUE_MAX,
    });
  switch (config.TRANSCRIBE_ENGINE) {
    case "openai":
      return new OpenAiEngine({
        baseUrl: config.OPENAI_BASE_URL,
        apiKey: config.OPENAI_API_KEY,
        model: config.OPENAI_TRANSCRIBE_MODEL,
        maxQueue: config.TRANSCRIBE_QUEUE_MAX,
        ffmpeg: config.FFMPEG_PATH,
      });
    case "pocketsphinx":
      return pocketsphinx();
    case "whisper": {
      const model = await whisperModel();
      if (!model) {
        throw new EngineUnavailableError(
          `No whisper model found (WHISPER_MODEL, or ggml-*.bin in ${config.MODELS_DIR}); run npm run model:download -- base.en.`,
        );
      }
      return createWhisper(model);
    }
    case "auto": {
      const model = await whisperModel().catch(() => null);
      if (model) return createWhisper(model);
      if (PocketsphinxEngine.isInstalled(config.POCKETSPHINX_MODEL_DIR)) {
        state.voicedraftBasicFallback = true;
        return pocketsphinx();
      }
      throw new EngineUnavailableError(NONE_INSTALLED);
    }
  }
}

/** The configured recognizer; an unavailable one is retried on the next call, not cached. */
export async function recognitionEngine(): Promise<RecognitionEngine> {
  if (state.voicedraftBasicFallback && (await whisperModel().catch(() => null))) {
    // PocketSphinx keeps nothing between recordings; the ones it is working on finish there.
    state.voicedraftBasicFallback = false;
    state.voicedraftEngine = undefined;
    log.info("switching to the accurate speech recognizer (whisper)");
  }
  if (state.voicedraftReselect) {
    // A new model arrived (a multilingual one, for someone's language): new recordings use it.
    state.voicedraftReselect = false;
    const replaced = state.voicedraftEngine;
    state.voicedraftEngine = undefined;
    setTimeout(() => void replaced?.then((engine) => engine.close?.()).catch(() => undefined), REPLACED_ENGINE_GRACE_MS).unref();
    log.info("switching to the newly installed speech recognizer model");
  }
  state.voicedraftEngine ??= createEngine().catch((err) => {
    state.voicedraftEngine = undefined;
    throw err;
  });
  return state.voicedraftEngine;
}

/** Forgets the engine (tests switch engines by changing the environment). */
export async function resetRecognitionEngine(): Promise<void> {
  const current = state.voicedraftEngine;
  state.voicedraftEngine = undefined;
  state.voicedraftBasicFallback = false;
  await (await current?.catch(() => undefined))?.close?.();
}

/** The model in MODELS_DIR changed: the next recording chooses the recognizer again. */
export function reselectEngine(): void {
  state.voicedraftReselect = true;
}

/** The languages the configured recognizer knows, and what to install for more (none installed: none). */
export async function recognizerLanguages(): Promise<{ languages: "any" | string[]; hint: string }> {
  try {
    const engine = await recognitionEngine();
    return (await engine.languages?.()) ?? { languages: "any", hint: "" };
  } catch (err) {
    return { languages: [], hint: (err as Error).message };
  }
}
