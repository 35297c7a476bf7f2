import { prepareAudio, type AudioInput } from "./audio.js";
import { GenerationTimeoutError, OptimizationTimeoutError, VoicedraftError } from "./errors.js";
import { deprecated } from "./deprecation.js";
import { Operations } from "./generated/methods.js";
import {
  AccountResource, ChannelsResource, ContentResource, DictionaryResource, NotesResource, PresetsResource, RewritesResource,
  ServiceResource, SettingsResource, TagsResource, WebhooksResource,
} from "./generated/resources.js";
import { OPERATIONS, type FormFields, type JsonAnswer } from "./operations.js";
import { transcriptEvents } from "./stream.js";
import { newClientId, sleep, Transport, type Call, type CallOptions, type RequestOptions } from "./transport.js";
import type { ContentFamily, DictionaryEntryInput, TranscriptionResult, TranscriptStreamEvent } from "./types.js";

export type ClientOptions = {
  /** Default: VOICEDRAFT_BASE_URL, else http://localhost:3000. */
  baseUrl?: string;
  /** Default: VOICEDRAFT_API_KEY. */
  apiKey?: string;
  /** Milliseconds per attempt for every call but transcribe. Default 30 s. */
  timeout?: number;
  /** Milliseconds per attempt for transcribe (recognition runs while you wait). Default 10 min. */
  transcribeTimeout?: number;
  /** Retries of a retry-safe call after a timeout, network error, 429 or 503. Default 2. */
  maxRetries?: number;
  /** A fetch implementation (default: the global fetch). */
  fetch?: typeof fetch;
};

export type TranscribeOptions = CallOptions & Pick<FormFields<"transcribe">, "prompt" | "language"> & {
  /** Entries applied on top of your stored dictionary; for the same misspelling these win. */
  dict?: DictionaryEntryInput[];
  /** Include timed segments. */
  segments?: boolean;
  /** Include every word with its time (`words`; implies verbose_json). */
  words?: boolean;
  /** The file name sent with the audio (the service reads the format from the bytes, not the name). */
  filename?: string;
  /** Makes retries replay the first result; default: a new UUID per call, reused by its retries. */
  idempotencyKey?: string;
  /** This upload is one part of a longer recording; read it whole with getRecording(id). */
  recording?: { id: string; part: number };
};

export type TranscribeStreamOptions = TranscribeOptions & {
  /** Milliseconds without a byte from the stream (the service sends a keep-alive every 15 s) before TimeoutError. Default 60 s. */
  idleTimeout?: number;
};

export type WaitOptions = CallOptions & {
  /** Give up after this many milliseconds (OptimizationTimeoutError, GenerationTimeoutError). Default 10 min, 2 min. */
  timeout?: number;
  /** Milliseconds between polls. Default 1 s. */
  interval?: number;
};

/**
 * `vd.notes`: transcriptions (generated from the document) and the calls that send or answer audio: transcribe,
 * transcribeStream, appendLiveAudio and getAudio.
 */
export class Notes extends NotesResource {
  readonly #transport: Transport;
  readonly #transcribeTimeout: number;

  constructor(transport: Transport, transcribeTimeout: number) {
    super((op, request) => transport.request(op, request));
    this.#transport = transport;
    this.#transcribeTimeout = transcribeTimeout;
  }
  /** Transcribes a recording; its retries send the same Idempotency-Key, so the service transcribes it once. */
  async transcribe(audio: AudioInput, options: TranscribeOptions = {}): Promise<TranscriptionResult> {
    return this.call(OPERATIONS.transcribe, await this.#transcribeRequest(audio, options));
  }
  /**
   * Transcribes a recording and yields `transcript.text.delta` events as it is recognized, then `transcript.text.done`
   * (the whole result). If the connection breaks, call again with the same idempotencyKey to get the stored result.
   */
  async *transcribeStream(
    audio: AudioInput,
    options: TranscribeStreamOptions = {},
  ): AsyncGenerator<TranscriptStreamEvent, void, undefined> {
    const { res, url } = await this.#transport.open(OPERATIONS.transcribe, await this.#transcribeRequest(audio, options));
    yield* transcriptEvents(res, options.idleTimeout ?? 60_000, url);
  }
  async #transcribeRequest(audio: AudioInput, options: TranscribeOptions): Promise<RequestOptions<"transcribe">> {
    const { blob, filename } = await prepareAudio(audio, options.filename);
    const form = new FormData();
    form.set("audio", blob, filename);
    const fields: { [Name in keyof FormFields<"transcribe">]?: string } = {
      prompt: options.prompt,
      dict: options.dict && JSON.stringify(options.dict),
      language: options.language,
      response_format: options.segments || options.words ? "verbose_json" : undefined,
      timestamp_granularities: options.words ? "word" : undefined,
      recording_id: options.recording?.id,
      recording_part: options.recording && String(options.recording.part),
    };
    for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.set(name, value);
    const headers = { "idempotency-key": options.idempotencyKey ?? newClientId() };
    return { form, headers, timeout: options.timeout ?? this.#transcribeTimeout, signal: options.signal };
  }
  /**
   * Sends the next bytes of a recording still being made, from byte `offset` (0 creates it); the service recognizes
   * it piece by piece as it arrives and answers the captions so far. Then notes.finishLiveRecording(id) makes the note.
   */
  appendLiveAudio(
    id: string,
    data: Blob | Uint8Array,
    options: CallOptions & { offset: number; contentType?: string; recordedAt?: string },
  ): Promise<JsonAnswer<"appendLiveAudio">> {
    const { offset, contentType = "audio/webm", recordedAt, ...call } = options;
    return this.call(OPERATIONS.appendLiveAudio, {
      pathParams: { id },
      query: { offset, ...(recordedAt && { recorded_at: recordedAt }) },
      bytes: { data, type: contentType },
      ...call,
    });
  }
  /** A note's kept recording (Opus in WebM), whole or one byte range (end inclusive); NotFoundError when it has none. */
  async getAudio(id: string, options: AudioOptions = {}): Promise<NoteAudio> {
    const { range, ...call } = options;
    const headers = range ? { range: `bytes=${range.start}-${range.end ?? ""}` } : undefined;
    const { res } = await this.#transport.open(OPERATIONS.getTranscriptionAudio, { pathParams: { id }, headers, ...call }, "audio/*");
    const bytes = new Uint8Array(await res.arrayBuffer());
    const contentRange = res.headers.get("content-range");
    const size = contentRange ? Number(contentRange.split("/")[1]) : bytes.length;
    return { bytes, contentType: res.headers.get("content-type") ?? "application/octet-stream", contentRange, size };
  }
}

export type AudioOptions = CallOptions & { range?: { start: number; end?: number } };
export type NoteAudio = { bytes: Uint8Array; contentType: string; contentRange: string | null; size: number };

/** `vd.account`: your data as a whole. */
export class Account extends AccountResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    super((op, request) => transport.request(op, request));
    this.#transport = transport;
  }
  /** Everything of yours as a ZIP (notes as Markdown, recordings, dictionary.csv, posts), streamed. */
  async export(options?: CallOptions): Promise<ReadableStream<Uint8Array>> {
    const { res } = await this.#transport.open(OPERATIONS.exportUserData, options, "application/zip");
    if (!res.body) throw new VoicedraftError("The export arrived without a body.");
    return res.body;
  }
}

const environment = (name: string): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name] || undefined;

/**
 * The client of one Voicedraft service with one API key: the API's resources as namespaces generated from the OpenAPI
 * document's tags (vd.notes, vd.dictionary, vd.channels, vd.content, vd.webhooks, …; named by the rule in
 * scripts/generate-clients.ts, the same as the Python SDK's), transcribe and the waits for background work. JS 0.2's
 * flat methods (vd.addDictionaryEntry, …) are deprecated aliases until 0.4.
 */
export class Voicedraft extends Operations {
  readonly baseUrl: string;
  readonly account: Account;
  readonly channels: ChannelsResource;
  readonly content: ContentResource;
  readonly dictionary: DictionaryResource;
  readonly notes: Notes;
  readonly presets: PresetsResource;
  readonly rewrites: RewritesResource;
  readonly service: ServiceResource;
  readonly settings: SettingsResource;
  readonly tags: TagsResource;
  readonly webhooks: WebhooksResource;

  constructor(options: ClientOptions = {}) {
    const apiKey = options.apiKey ?? environment("VOICEDRAFT_API_KEY");
    if (!apiKey) throw new VoicedraftError("No API key: pass { apiKey } or set VOICEDRAFT_API_KEY.");
    const baseUrl = options.baseUrl ?? environment("VOICEDRAFT_BASE_URL") ?? "http://localhost:3000";
    const fetch = options.fetch ?? globalThis.fetch;
    if (typeof fetch !== "function") throw new VoicedraftError("No fetch available: pass { fetch }.");
    const { timeout = 30_000, maxRetries = 2 } = options;
    const transport = new Transport({ baseUrl, apiKey, timeout, maxRetries, fetch: fetch.bind(globalThis) });
    const call: Call = (op, request) => transport.request(op, request);
    super(call);
    this.baseUrl = baseUrl;
    this.account = new Account(transport);
    this.channels = new ChannelsResource(call);
    this.content = new ContentResource(call);
    this.dictionary = new DictionaryResource(call);
    this.notes = new Notes(transport, options.transcribeTimeout ?? 600_000);
    this.presets = new PresetsResource(call);
    this.rewrites = new RewritesResource(call);
    this.service = new ServiceResource(call);
    this.settings = new SettingsResource(call);
    this.tags = new TagsResource(call);
    this.webhooks = new WebhooksResource(call);
  }
  /** Transcribes a recording (vd.notes.transcribe); its retries send the same Idempotency-Key, so it is transcribed once. */
  transcribe(audio: AudioInput, options: TranscribeOptions = {}): Promise<TranscriptionResult> {
    return this.notes.transcribe(audio, options);
  }
  /** vd.notes.transcribeStream: `transcript.text.delta` events as the recording is recognized, then `transcript.text.done`. */
  transcribeStream(audio: AudioInput, options: TranscribeStreamOptions = {}): AsyncGenerator<TranscriptStreamEvent, void, undefined> {
    return this.notes.transcribeStream(audio, options);
  }
  /** @deprecated Use `vd.notes.appendLiveAudio()`; this alias is removed in 0.4. */
  appendLiveAudio(
    id: string,
    data: Blob | Uint8Array,
    options: CallOptions & { offset: number; contentType?: string; recordedAt?: string },
  ): Promise<JsonAnswer<"appendLiveAudio">> {
    deprecated("appendLiveAudio", "notes.appendLiveAudio");
    return this.notes.appendLiveAudio(id, data, options);
  }
  /** @deprecated Use `vd.notes.getAudio()`; this alias is removed in 0.4. */
  getTranscriptionAudio(id: string, options: AudioOptions = {}): Promise<NoteAudio> {
    deprecated("getTranscriptionAudio", "notes.getAudio");
    return this.notes.getAudio(id, options);
  }
  /** @deprecated Use `vd.account.export()`; this alias is removed in 0.4. */
  exportUserData(options?: CallOptions): Promise<ReadableStream<Uint8Array>> {
    deprecated("exportUserData", "account.export");
    return this.account.export(options);
  }
  /** Polls a transcription until its optimization has completed or failed (at once when it has none), and returns it. */
  async waitForOptimization(transcription: string | TranscriptionResult, options: WaitOptions = {}): Promise<TranscriptionResult> {
    const id = typeof transcription === "string" ? transcription : transcription.id;
    const { timeout = 600_000, interval = 1000 } = options;
    const deadline = Date.now() + timeout;
    for (;;) {
      const result = await this.notes.get(id, { signal: options.signal });
      const { optimization } = result;
      if (!optimization || optimization.status === "completed" || optimization.status === "failed") return result;
      if (Date.now() + interval > deadline) {
        const { chunks_done, chunks_total } = optimization.progress;
        const state = `${optimization.status} (${chunks_done}/${chunks_total} chunks)`;
        throw new OptimizationTimeoutError(`Optimization of ${id} is still ${state} after ${timeout} ms.`);
      }
      await sleep(interval);
    }
  }
  /** Polls a master's family (or a variant's) until no variant is queued or running, and returns it. */
  async waitForVariants(id: string, options: WaitOptions = {}): Promise<ContentFamily> {
    const { timeout = 120_000, interval = 500 } = options;
    const deadline = Date.now() + timeout;
    let finishedBefore = false;
    for (;;) {
      const family = await this.content.getFamily(id, { signal: options.signal });
      const busy = family.variants.filter((v) => v.generation?.state === "queued" || v.generation?.state === "running");
      // The service reads items and their tasks in separate statements, so the read that first
      // shows a task finished may still carry the text from before it; the next read cannot.
      if (!busy.length && finishedBefore) return family;
      finishedBefore = !busy.length;
      if (finishedBefore) continue;
      if (Date.now() > deadline) {
        throw new GenerationTimeoutError(`${busy.length} variant(s) of ${id} are still being generated after ${timeout} ms.`);
      }
      await sleep(interval);
    }
  }
}
