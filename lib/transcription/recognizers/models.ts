import { existsSync, readdirSync, statSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { downloadVerified, ModelDownloadError } from "@/lib/downloads/verified-download.ts";
import { EngineUnavailableError } from "@/lib/transcription/recognizers/types.ts";

// whisper.cpp's ggml models, their files and where to get them.

export const DEFAULT_MODEL_BASE_URL = "https://huggingface.co/ggerganov/whisper.cpp/resolve/main/";

/** SHA-1 of each published model, as listed in whisper.cpp's models/README.md. */
export const WHISPER_MODEL_SHA1: Readonly<Record<string, string>> = {
  tiny: "bd577a113a864445d4c299885e0cb97d4ba92b5f",
  "tiny.en": "c78c86eb1a8faa21b369bcd33207cc90d64ae9df",
  base: "465707469ff3a37a2b9b8d8f89f2f99de7299dac",
  "base.en": "137c40403d78fd54d454da0f9bd998f78703390c",
  small: "55356645c2b361a969dfd0ef2c5a50d530afd8d5",
  "small.en": "db8a495a91d927739e50b3fc1cc4c6b8f6c2d022",
  "small.en-tdrz": "b6c6e7e89af1a35c08e6de56b66ca6a02a2fdfa1",
  medium: "fd9727b6e1217c2f614f9b698455c4ffd82463b4",
  "medium.en": "8c30f0e44ce9560643ebd10bbe50cd20eafd3723",
  "large-v1": "b1caaf735c4cc1429223d5a74f0f4d0b9b59a299",
  "large-v2": "0f4c8e34f21cf1a914c59d8b3ce882345ad349d6",
  "large-v2-q5_0": "00e39f2196344e901b3a2bd5814807a769bd1630",
  "large-v3": "ad82bf6a9043ceed055076d0fd39f5f186ff8062",
  "large-v3-q5_0": "e6e2ed78495d403bef4b7cff42ef4aaadcfea8de",
  "large-v3-turbo": "4af2b29d7ec73d781377bfd1758ca957a807e941",
  "large-v3-turbo-q5_0": "e050f7970618a659205450ad97eb95a18d69c9ee",
};

export const KNOWN_MODELS = Object.keys(WHISPER_MODEL_SHA1);

export const modelFileName = (name: string) => `ggml-${name}.bin`;

export const GET_MODEL_HINT =
  "get one with `npm run model:download -- base.en` (into MODELS_DIR), or set WHISPER_MODEL to a ggml model file";

export class UnknownModelError extends Error {
  constructor(name: string) {
    super(`Unknown whisper model "${name}". Known models: ${KNOWN_MODELS.join(", ")}.`);
    this.name = "UnknownModelError";
  }
}

export { ModelDownloadError };

export type DownloadOptions = {
  name: string;
  modelsDir: string;
  baseUrl?: string;
  /** Time allowed until the server answers with headers; offline, this is how long it takes to fail. */
  connectTimeoutMs?: number;
  /** Time allowed without receiving a byte once the body streams. */
  idleTimeoutMs?: number;
  force?: boolean;
  /** Checks against this sum instead of the table's (a file that whisper.cpp does not list). */
  expectedSha1?: string;
  onProgress?: (received: number, total: number | null) => void;
};

export type DownloadResult = { path: string; bytes: number; sha1: string; skipped: boolean };

/**
 * Downloads a model into MODELS_DIR, resumable and checked against its published SHA-1
 * (lib/downloads/verified-download.ts).
 */
export async function downloadWhisperModel(options: DownloadOptions): Promise<DownloadResult> {
  const { name, modelsDir } = options;
  const expected = options.expectedSha1 ?? WHISPER_MODEL_SHA1[name];
  if (!expected || !/^[\w.-]+$/.test(name)) throw new UnknownModelError(name);
  const file = modelFileName(name);
  const destination = path.resolve(modelsDir, file);
  const result = await downloadVerified({
    url: new URL(file, withSlash(options.baseUrl ?? DEFAULT_MODEL_BASE_URL)).toString(),
    destination,
    algorithm: "sha1",
    expected,
    byHand: `Download it on a machine with internet access and copy it to ${destination}, or set WHISPER_MODEL to its path.`,
    connectTimeoutMs: options.connectTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs,
    force: options.force,
    onProgress: options.onProgress,
  });
  return { path: result.path, bytes: result.bytes, sha1: result.digest, skipped: result.skipped };
}

const withSlash = (url: string) => (url.endsWith("/") ? url : `${url}/`);

// Most capable first: accuracy grows with size. Of two models of one size, the multilingual one:
// it is there because someone speaks another language (their setting fetched it), while its .en
// twin is only slightly better on English.
const PREFERENCE = [
  "large-v3", "large-v3-turbo", "large-v2", "large-v1", "large",
  "medium", "medium.en", "small", "small.en", "base", "base.en", "tiny", "tiny.en",
];
const MODEL_FILE = /^ggml-((?:tiny|base|small|medium|large)[\w.-]*)\.bin$/;

function rank(name: string): number {
  // "base.en-q5_1" ranks just after "base.en"; unknown variants after everything known.
  const index = PREFERENCE.findIndex((p) => name === p || name.startsWith(`${p}-`));
  return index === -1 ? PREFERENCE.length * 2 : index * 2 + (name === PREFERENCE[index] ? 0 : 1);
}

/**
 * The model to load: WHISPER_MODEL (a path, or a model name looked up in MODELS_DIR) when set,
 * else the most capable ggml-*.bin in MODELS_DIR, else null.
 */
export function resolveWhisperModel({ WHISPER_MODEL, MODELS_DIR }: { WHISPER_MODEL?: string; MODELS_DIR: string }): string | null {
  if (WHISPER_MODEL) {
    const candidates = [path.resolve(WHISPER_MODEL)];
    if (!WHISPER_MODEL.includes("/")) candidates.push(path.resolve(MODELS_DIR, modelFileName(WHISPER_MODEL)));
    const found = candidates.find((c) => existsSync(c) && statSync(c).isFile());
    if (!found) {
      throw new EngineUnavailableError(`WHISPER_MODEL is set to "${WHISPER_MODEL}", but no such model file exists; ${GET_MODEL_HINT}.`);
    }
    return found;
  }
  let names: string[];
  try {
    names = readdirSync(MODELS_DIR);
  } catch {
    return null;
  }
  const models = names
    .map((file) => ({ file, name: MODEL_FILE.exec(file)?.[1] }))
    .filter((m): m is { file: string; name: string } => !!m.name && statSync(path.join(MODELS_DIR, m.file)).isFile())
    .sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
  return models.length ? path.resolve(MODELS_DIR, models[0].file) : null;
}


export class ModelFileError extends Error {
  constructor(
    readonly modelPath: string,
    readonly reason: string,
  ) {
    super(`${modelPath} is not a usable whisper model: ${reason}`);
    this.name = "ModelFileError";
  }
}

export type WhisperModelInfo = {
  /** tiny, base, small, medium or large, from the number of encoder layers. */
  size: string;
  multilingual: boolean;
  /** False for whisper.cpp's "for-tests" models, which hold the vocabulary but no weights. */
  hasWeights: boolean;
  tensors: number;
  bytes: number;
};

const GGML_MAGIC = 0x67676d6c;
const LAYERS_TO_SIZE: Record<number, string> = { 4: "tiny", 6: "base", 12: "small", 24: "medium", 32: "large" };
// Bytes per block and elements per block of each ggml tensor type a whisper model may use.
const TYPE_SIZES: Record<number, [bytes: number, elements: number]> = {
  0: [4, 1], 1: [2, 1], 2: [18, 32], 3: [20, 32], 6: [22, 32], 7: [24, 32], 8: [34, 32],
  10: [84, 256], 11: [110, 256], 12: [144, 256], 13: [176, 256], 14: [210, 256],
};

/**
 * Walks a ggml model file's header, vocabulary and tensor table without loading the weights.
 * whisper.cpp itself accepts a truncated file (it reads it as an "empty" model and then runs on
 * garbage), so this is what catches a partial download or a file of the wrong kind.
 */
export async function inspectWhisperModel(modelPath: string): Promise<WhisperModelInfo> {
  let handle: FileHandle;
  try {
    handle = await open(modelPath, "r");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ModelFileError(modelPath, code === "ENOENT" ? "the file does not exist" : `it cannot be read (${code})`);
  }
  try {
    const { size: bytes } = await handle.stat();
    const reader = new FileReader(handle, bytes, modelPath);
    if ((await reader.u32()) !== GGML_MAGIC) throw new ModelFileError(modelPath, "it is not a ggml file (wrong magic number)");
    const [nVocab, , , , nAudioLayer, , , , , nMels] = await reader.i32s(11);
    if (nVocab < 50_000 || nVocab > 60_000 || !LAYERS_TO_SIZE[nAudioLayer] || (nMels !== 80 && nMels !== 128)) {
      throw new ModelFileError(modelPath, "its header does not describe a whisper model");
    }
    const [filterMels, filterFft] = await reader.i32s(2);
    await reader.skip(filterMels * filterFft * 4);
    const tokens = await reader.i32();
    for (let i = 0; i < tokens; i++) await reader.skip(await reader.u32());
    let tensors = 0;
    while (reader.position < bytes) {
      const [dims, nameLength, type] = await reader.i32s(3);
      const shape = await reader.i32s(dims);
      await reader.skip(nameLength);
      const typeSize = TYPE_SIZES[type];
      if (dims < 1 || dims > 4 || !typeSize) throw new ModelFileError(modelPath, `tensor ${tensors} has an unknown layout`);
      await reader.skip((shape.reduce((a, b) => a * b, 1) / typeSize[1]) * typeSize[0]);
      tensors++;
    }
    return { size: LAYERS_TO_SIZE[nAudioLayer], multilingual: nVocab >= 51_865, hasWeights: tensors > 0, tensors, bytes };
  } finally {
    await handle.close();
  }
}

/** Sequential little-endian reads through a 1 MiB window; skips past the window cost nothing. */
class FileReader {
  position = 0;
  private window = Buffer.alloc(0);
  private windowStart = 0;

  constructor(
    private readonly handle: FileHandle,
    private readonly size: number,
    private readonly modelPath: string,
  ) {}

  async skip(length: number): Promise<void> {
    if (length < 0 || this.position + length > this.size) this.truncated();
    this.position += length;
  }

  async i32s(count: number): Promise<number[]> {
    const bytes = await this.bytes(count * 4);
    return Array.from({ length: count }, (_, i) => bytes.readInt32LE(i * 4));
  }

  async i32(): Promise<number> {
    return (await this.bytes(4)).readInt32LE(0);
  }

  async u32(): Promise<number> {
    return (await this.bytes(4)).readUInt32LE(0);
  }

  private async bytes(length: number): Promise<Buffer> {
    if (length < 0 || this.position + length > this.size) this.truncated();
    const end = this.position + length;
    if (this.position < this.windowStart || end > this.windowStart + this.window.length) {
      const buffer = Buffer.alloc(Math.max(length, 1 << 20));
      const { bytesRead } = await this.handle.read(buffer, 0, buffer.length, this.position);
      this.window = buffer.subarray(0, bytesRead);
      this.windowStart = this.position;
    }
    const offset = this.position - this.windowStart;
    this.position = end;
    return this.window.subarray(offset, offset + length);
  }

  private truncated(): never {
    throw new ModelFileError(this.modelPath, "it is truncated (an interrupted download?)");
  }
}
