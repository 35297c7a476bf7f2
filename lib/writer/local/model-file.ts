import { existsSync, statSync } from "node:fs";
import { totalmem } from "node:os";
import path from "node:path";
import { env } from "@/lib/env.ts";

// Which model the local writer uses, where its file is, and whether this machine runs it.
//
// The default is Qwen2.5-1.5B-Instruct in Q4_K_M (Apache-2.0, Qwen's own GGUF): of the small
// instruct models whose licence allows this use (Qwen2.5-1.5B, Qwen3-1.7B, SmolLM2-1.7B, all
// Apache-2.0) it follows a format best at this size, and it writes the four languages Voicedraft
// writes in (SmolLM2 is English first; Qwen3 thinks aloud first unless told not to, tokens a
// 4-core laptop pays for). 1.1 GB to download, about 1.4 GB of memory loaded with a 4096-token
// context. For small machines, Qwen2.5-0.5B-Instruct (SMALL_LOCAL_MODEL_URL, 0.5 GB) through
// WRITER_LOCAL_MODEL_URL and WRITER_LOCAL_MODEL_SHA256. The SHA-256s are the ones Hugging Face
// lists for the files; they could not be checked from here (no download), and a file that does
// not match is refused (docs/configuration.md).

export type LocalModelSource = { url: string; sha256: string; bytes: number; licence: string };

export const DEFAULT_LOCAL_MODEL: LocalModelSource = {
  url: "https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf",
  sha256: "6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e",
  bytes: 1_117_320_736,
  licence: "Apache-2.0",
};

/** About 0.5 GB; its SHA-256 is not pinned here: take it from the file's Hugging Face page. */
export const SMALL_LOCAL_MODEL_URL = "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf";

/** Below this much memory, `WRITER_LOCAL=auto` leaves writing to the rules (the model takes ~1.4 GB loaded). */
export const LOCAL_MODEL_MIN_MEMORY = 4 * 2 ** 30;

type Settings = Pick<ReturnType<typeof env>, "WRITER_LOCAL" | "WRITER_LOCAL_MODEL" | "WRITER_LOCAL_MODEL_URL" | "WRITER_LOCAL_MODEL_SHA256" | "MODELS_DIR">;

/** Where the model comes from: the mirror when set (with its own SHA-256, or the default's). */
export function localModelSource(config: Settings = env()): LocalModelSource {
  if (!config.WRITER_LOCAL_MODEL_URL) return DEFAULT_LOCAL_MODEL;
  return { ...DEFAULT_LOCAL_MODEL, url: config.WRITER_LOCAL_MODEL_URL, sha256: config.WRITER_LOCAL_MODEL_SHA256 ?? DEFAULT_LOCAL_MODEL.sha256 };
}

const FALLBACK_NAME = "writer-model.gguf";

/**
 * The downloaded model's place in MODELS_DIR: the URL's file name, taken after decoding (a mirror's
 * `..%2F` or `..%5C` must not lead out of MODELS_DIR). A name that is not a plain visible file name
 * (`..`, a hidden file such as the download's status) is refused for writer-model.gguf.
 */
export function downloadedModelPath(config: Settings = env()): string {
  const dir = path.resolve(config.MODELS_DIR);
  const name = fileNameOf(new URL(localModelSource(config).url).pathname.split("/").pop() ?? "");
  const file = path.resolve(dir, name.endsWith(".gguf") ? name : `${name}.gguf`);
  return path.dirname(file) === dir ? file : path.join(dir, FALLBACK_NAME);
}

function fileNameOf(segment: string): string {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A malformed escape: the name as written.
  }
  const name = path.posix.basename(decoded.replaceAll("\\", "/"));
  return !name || name.startsWith(".") || /[\x00-\x1f\x7f]/.test(name) ? FALLBACK_NAME : name;
}

export type LocalModelChoice =
  | { path: string; reason?: undefined }
  | { path: null; why: "off" | "memory" | "no-such-file" | "not-downloaded"; reason: string; downloadable: boolean };

/**
 * The model file the local writer would load, or why there is none: WRITER_LOCAL=off, too little
 * memory, WRITER_LOCAL_MODEL naming no file, or the download not (yet) there.
 */
export function chooseLocalModel(config: Settings = env(), memory = totalmem()): LocalModelChoice {
  if (config.WRITER_LOCAL === "off") return { path: null, why: "off", reason: "the model on this machine is off (WRITER_LOCAL=off)", downloadable: false };
  if (memory < LOCAL_MODEL_MIN_MEMORY) {
    return { path: null, why: "memory", reason: `this machine has ${(memory / 2 ** 30).toFixed(1)} GiB of memory; the model on this machine wants ${LOCAL_MODEL_MIN_MEMORY / 2 ** 30} GiB`, downloadable: false };
  }
  if (config.WRITER_LOCAL_MODEL) {
    const file = path.resolve(config.WRITER_LOCAL_MODEL);
    // No path in the reason: /api/health shows it to anyone.
    return isFile(file) ? { path: file } : { path: null, why: "no-such-file", reason: "WRITER_LOCAL_MODEL names a file that is not there", downloadable: false };
  }
  const file = downloadedModelPath(config);
  return isFile(file) ? { path: file } : { path: null, why: "not-downloaded", reason: "the model on this machine has not been downloaded yet", downloadable: true };
}

const isFile = (file: string) => existsSync(file) && statSync(file).isFile();
