import { prepareAudio, type AudioInput } from "./audio.js";
import { ContentApi } from "./content.js";
import type { DictionaryUpsertResult } from "./generated/schemas.js";
import { OptimizationTimeoutError, VoicedraftError } from "./errors.js";
import { OPERATIONS, type FormFields, type JsonBody, type QueryParams } from "./operations.js";
import { transcriptEvents } from "./stream.js";
import { newClientId, sleep, Transport, type Call, type CallOptions, type RequestOptions } from "./transport.js";
import type {
  DictionaryEntry, DictionaryEntryInput, DictionarySuggestion, EditedTranscription, Recording, Settings, TranscriptionPage,
  TranscriptionResult, TranscriptStreamEvent,
} from "./types.js";

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
  /** Give up after this many milliseconds (OptimizationTimeoutError). Default 10 min. */
  timeout?: number;
  /** Milliseconds between polls. Default 1 s. */
  interval?: number;
};

const environment = (name: string): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name] || undefined;

/** The client of one Voicedraft service with one API key. */
export class Voicedraft {
  readonly baseUrl: string;
  readonly #transport: Transport;
  readonly #transcribeTimeout: number;
  readonly #call: Call = (op, options) => this.#transport.request(op, options);
  readonly dictionary = new DictionaryApi(this.#call);
  readonly content = new ContentApi(this.#call);

  constructor(options: ClientOptions = {}) {
    const apiKey = options.apiKey ?? environment("VOICEDRAFT_API_KEY");
    if (!apiKey) throw new VoicedraftError("No API key: pass { apiKey } or set VOICEDRAFT_API_KEY.");
    this.baseUrl = options.baseUrl ?? environment("VOICEDRAFT_BASE_URL") ?? "http://localhost:3000";
    const fetch = options.fetch ?? globalThis.fetch;
    if (typeof fetch !== "function") throw new VoicedraftError("No fetch available: pass { fetch }.");
    const { timeout = 30_000, maxRetries = 2 } = options;
    this.#transport = new Transport({ baseUrl: this.baseUrl, apiKey, timeout, maxRetries, fetch: fetch.bind(globalThis) });
    this.#transcribeTimeout = options.transcribeTimeout ?? 600_000;
  }
  /** Transcribes a recording; its retries send the same Idempotency-Key, so the service transcribes it once. */
  async transcribe(audio: AudioInput, options: TranscribeOptions = {}): Promise<TranscriptionResult> {
    return this.#call(OPERATIONS.transcribe, await this.#transcribeRequest(audio, options));
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
  /** One of your transcriptions, with its segments and, when enabled, its optimization status. */
  getTranscription(id: string, options?: CallOptions): Promise<TranscriptionResult> {
    return this.#call(OPERATIONS.getTranscription, { pathParams: { id }, ...options });
  }
  /** A recording uploaded in parts (transcribe with { recording }), joined in part order. */
  getRecording(id: string, options?: CallOptions): Promise<Recording> {
    return this.#call(OPERATIONS.getRecording, { pathParams: { recording_id: id }, ...options });
  }
  /** A page of your transcriptions, newest first; with `q`, the notes that match it (web search syntax), best first. */
  listTranscriptions(page: QueryParams<"listTranscriptions"> = {}, options?: CallOptions): Promise<TranscriptionPage> {
    return this.#call(OPERATIONS.listTranscriptions, { query: page, ...options });
  }
  /** Searches your notes: listTranscriptions with `q`. */
  searchTranscriptions(q: string, page: { limit?: number; cursor?: string } = {}, options?: CallOptions): Promise<TranscriptionPage> {
    return this.listTranscriptions({ ...page, q }, options);
  }
  /** A note's kept recording (Opus in WebM), whole or one byte range (end inclusive); NotFoundError when it has none. */
  async getTranscriptionAudio(
    id: string,
    options: CallOptions & { range?: { start: number; end?: number } } = {},
  ): Promise<{ bytes: Uint8Array; contentType: string; contentRange: string | null; size: number }> {
    const { range, ...call } = options;
    const headers = range ? { range: `bytes=${range.start}-${range.end ?? ""}` } : undefined;
    const { res } = await this.#transport.open(OPERATIONS.getTranscriptionAudio, { pathParams: { id }, headers, ...call }, "audio/*");
    const bytes = new Uint8Array(await res.arrayBuffer());
    const contentRange = res.headers.get("content-range");
    const size = contentRange ? Number(contentRange.split("/")[1]) : bytes.length;
    return { bytes, contentType: res.headers.get("content-type") ?? "application/octet-stream", contentRange, size };
  }
  /** Deletes a note and its kept recording; the posts made from it too with { withPosts: true }. */
  async deleteTranscription(id: string, options: CallOptions & { withPosts?: boolean } = {}): Promise<void> {
    const { withPosts, ...call } = options;
    await this.#call(OPERATIONS.deleteTranscription, { pathParams: { id }, query: withPosts ? { with_posts: "true" } : {}, ...call });
  }
  /** Your settings: the language of your recordings, and what the server's recognizer can do for it. */
  getSettings(options?: CallOptions): Promise<Settings> {
    return this.#call(OPERATIONS.getSettings, options);
  }
  /** Sets the language of your recordings ("auto": detect it in each). */
  updateSettings(input: { language: string }, options?: CallOptions): Promise<Settings> {
    return this.#call(OPERATIONS.updateSettings, { json: input, ...options });
  }
  /** Everything of yours as a ZIP (notes as Markdown, recordings, dictionary.csv, posts), streamed. */
  async exportArchive(options?: CallOptions): Promise<ReadableStream<Uint8Array>> {
    const { res } = await this.#transport.open(OPERATIONS.exportUserData, options, "application/zip");
    if (!res.body) throw new VoicedraftError("The export arrived without a body.");
    return res.body;
  }
  /** Replaces a transcript's text; with updated_at, ConflictError (edit_conflict) if it changed since. */
  editTranscription(id: string, input: JsonBody<"editTranscription">, options?: CallOptions): Promise<EditedTranscription> {
    return this.#call(OPERATIONS.editTranscription, { pathParams: { id }, json: input, ...options });
  }
  /** Dictionary entries suggested by your edits of a transcript, most frequent first. */
  getDictionarySuggestions(
    id: string,
    page: QueryParams<"getDictionarySuggestions"> = {},
    options?: CallOptions,
  ): Promise<DictionarySuggestion[]> {
    const request = { pathParams: { id }, query: page, ...options };
    return this.#call(OPERATIONS.getDictionarySuggestions, request).then((r) => r.dictionary_suggestions);
  }
  /** Polls a transcription until its optimization has completed or failed (at once when it has none), and returns it. */
  async waitForOptimization(transcription: string | TranscriptionResult, options: WaitOptions = {}): Promise<TranscriptionResult> {
    const id = typeof transcription === "string" ? transcription : transcription.id;
    const { timeout = 600_000, interval = 1000 } = options;
    const deadline = Date.now() + timeout;
    for (;;) {
      const result = await this.getTranscription(id, { signal: options.signal });
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
}

/** Your personal dictionary: misspelling → correct spelling, applied to every transcript. */
export class DictionaryApi {
  constructor(private readonly call: Call) {}

  /** Every entry, sorted by misspelling. */
  async list(options?: CallOptions): Promise<DictionaryEntry[]> {
    const entries: DictionaryEntry[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.call(OPERATIONS.listDictionary, { query: { cursor }, ...options });
      entries.push(...page.entries);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return entries;
  }
  /** Adds an entry, or updates the one with the same misspelling (ignoring case and spacing). */
  add(misspelling: string, correctSpelling: string, options?: CallOptions): Promise<DictionaryUpsertResult> {
    return this.call(OPERATIONS.addDictionaryEntry, { json: { misspelling, correct_spelling: correctSpelling }, ...options });
  }
  /** Deletes the entry with this misspelling and returns it; NotFoundError when there is none. */
  delete(misspelling: string, options?: CallOptions): Promise<DictionaryEntry> {
    return this.call(OPERATIONS.deleteDictionaryEntry, { query: { misspelling }, ...options }).then((r) => r.deleted);
  }
}
