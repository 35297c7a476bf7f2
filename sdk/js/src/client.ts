import { prepareAudio, type AudioInput } from "./audio.js";
import { ContentApi, newClientId, type Call } from "./content.js";
import { OptimizationTimeoutError, VoicedraftError } from "./errors.js";
import { OPERATIONS, type FormFields, type JsonBody, type QueryParams } from "./operations.js";
import { transcriptEvents } from "./stream.js";
import { openStream, request, type TransportOptions } from "./transport.js";
import type {
  DictionaryEntry,
  DictionaryEntryInput,
  DictionarySuggestion,
  EditedTranscription,
  Recording,
  Settings,
  TranscriptionPage,
  TranscriptionResult,
  TranscriptStreamEvent,
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

export type CallOptions = { timeout?: number; signal?: AbortSignal };

export type TranscribeOptions = CallOptions & {
  /** Words and names to expect. */
  prompt?: string;
  /** Entries applied on top of your stored dictionary; for the same misspelling these win. */
  dict?: DictionaryEntryInput[];
  /** ISO 639-1 code of the spoken language, if known. */
  language?: string;
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

const DEFAULT_BASE_URL = "http://localhost:3000";

function environment(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return proc?.env?.[name] || undefined;
}

export const FINISHED_OPTIMIZATION = new Set(["completed", "failed"]);

/** The client of one Voicedraft service with one API key. */
export class Voicedraft {
  readonly baseUrl: string;
  readonly dictionary: DictionaryApi;
  readonly content: ContentApi;
  readonly #transport: TransportOptions;
  readonly #transcribeTimeout: number;

  constructor(options: ClientOptions = {}) {
    const apiKey = options.apiKey ?? environment("VOICEDRAFT_API_KEY");
    if (!apiKey) throw new VoicedraftError("No API key: pass { apiKey } or set VOICEDRAFT_API_KEY.");
    this.baseUrl = options.baseUrl ?? environment("VOICEDRAFT_BASE_URL") ?? DEFAULT_BASE_URL;
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== "function") throw new VoicedraftError("No fetch available: pass { fetch }.");
    this.#transport = {
      baseUrl: this.baseUrl,
      apiKey,
      timeout: options.timeout ?? 30_000,
      maxRetries: options.maxRetries ?? 2,
      fetch: fetchImpl.bind(globalThis),
    };
    this.#transcribeTimeout = options.transcribeTimeout ?? 600_000;
    this.dictionary = new DictionaryApi(this.#call);
    this.content = new ContentApi(this.#call);
  }

  #call: Call = (op, options) => request(this.#transport, op, options);

  /**
   * Transcribes a recording: a file path (Node), bytes, a Blob/File or a stream. A retry sends the
   * same Idempotency-Key, so the service replays the first result instead of transcribing twice.
   */
  async transcribe(audio: AudioInput, options: TranscribeOptions = {}): Promise<TranscriptionResult> {
    return this.#call(OPERATIONS.transcribe, await this.#transcribeRequest(audio, options));
  }

  /**
   * Transcribes a recording and yields its text as it is recognized: `transcript.text.delta`
   * events (the deltas joined are the text so far), then `transcript.text.done`, which is the whole
   * result as transcribe() returns it. A failure after the stream began is thrown as the same
   * ApiError subclass a failed transcribe() throws. If the connection breaks, call again with the
   * same idempotencyKey: the stored result is replayed (as one delta, then done).
   *
   *     for await (const event of vd.transcribeStream("note.m4a")) {
   *       if (event.type === "transcript.text.delta") process.stdout.write(event.delta);
   *       else console.log("\n", event.id);
   *     }
   */
  async *transcribeStream(audio: AudioInput, options: TranscribeStreamOptions = {}): AsyncGenerator<TranscriptStreamEvent, void, undefined> {
    const { res, url } = await openStream(this.#transport, OPERATIONS.transcribe, await this.#transcribeRequest(audio, options));
    yield* transcriptEvents(res, options.idleTimeout ?? 60_000, url);
  }

  async #transcribeRequest(audio: AudioInput, options: TranscribeOptions) {
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
    return {
      form,
      headers: { "idempotency-key": options.idempotencyKey ?? newClientId() },
      timeout: options.timeout ?? this.#transcribeTimeout,
      signal: options.signal,
    };
  }

  /** One of your transcriptions, with its segments and, when enabled, its optimization status. */
  getTranscription(id: string, options: CallOptions = {}): Promise<TranscriptionResult> {
    return this.#call(OPERATIONS.getTranscription, { pathParams: { id }, ...options });
  }

  /** A recording uploaded in parts (transcribe with { recording }), joined in part order. */
  getRecording(id: string, options: CallOptions = {}): Promise<Recording> {
    return this.#call(OPERATIONS.getRecording, { pathParams: { recording_id: id }, ...options });
  }

  /**
   * A page of your transcriptions, newest first (without segments); pass next_cursor as cursor for
   * older ones. With `q`, the notes that match it (web search syntax: words, "a phrase", or,
   * -excluded), best match first, each with `search.snippet` (`match` on the words found).
   */
  listTranscriptions(page: QueryParams<"listTranscriptions"> = {}, options: CallOptions = {}): Promise<TranscriptionPage> {
    return this.#call(OPERATIONS.listTranscriptions, { query: page, ...options });
  }

  /** Searches your notes: listTranscriptions with `q`. */
  searchTranscriptions(q: string, page: { limit?: number; cursor?: string } = {}, options: CallOptions = {}): Promise<TranscriptionPage> {
    return this.listTranscriptions({ ...page, q }, options);
  }

  /**
   * A note's kept recording (Opus in WebM), whole or one byte range (`range: { start, end? }`, end
   * inclusive). NotFoundError when the note has none (keep_audio=false, or the retention passed).
   */
  async getTranscriptionAudio(
    id: string,
    options: CallOptions & { range?: { start: number; end?: number } } = {},
  ): Promise<{ bytes: Uint8Array; contentType: string; contentRange: string | null; size: number }> {
    const { range, ...call } = options;
    const headers = range ? { range: `bytes=${range.start}-${range.end ?? ""}` } : undefined;
    const { res } = await openStream(this.#transport, OPERATIONS.getTranscriptionAudio, { pathParams: { id }, headers, ...call }, "audio/*");
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
  getSettings(options: CallOptions = {}): Promise<Settings> {
    return this.#call(OPERATIONS.getSettings, options);
  }

  /** Sets the language of your recordings ("auto": detect it in each). */
  updateSettings(input: { language: string }, options: CallOptions = {}): Promise<Settings> {
    return this.#call(OPERATIONS.updateSettings, { json: input, ...options });
  }

  /** Everything of yours as a ZIP (notes as Markdown, recordings, dictionary.csv, posts), streamed. */
  async exportArchive(options: CallOptions = {}): Promise<ReadableStream<Uint8Array>> {
    const { res } = await openStream(this.#transport, OPERATIONS.exportUserData, options, "application/zip");
    if (!res.body) throw new VoicedraftError("The export arrived without a body.");
    return res.body;
  }

  /**
   * Replaces a transcript's text. With updated_at (the one you last read), a transcript changed
   * since is refused with ConflictError (edit_conflict) instead of being overwritten. The answer
   * carries dictionary_suggestions: entries this edit suggests ("cooper netties" → "Kubernetes").
   */
  editTranscription(id: string, input: JsonBody<"editTranscription">, options: CallOptions = {}): Promise<EditedTranscription> {
    return this.#call(OPERATIONS.editTranscription, { pathParams: { id }, json: input, ...options });
  }

  /**
   * Dictionary entries suggested by everything you changed in a transcript (the recognizer's text
   * against your current one), most frequent first, leaving out what your dictionary holds.
   */
  async getDictionarySuggestions(id: string, page: QueryParams<"getDictionarySuggestions"> = {}, options: CallOptions = {}): Promise<DictionarySuggestion[]> {
    const answer = await this.#call(OPERATIONS.getDictionarySuggestions, { pathParams: { id }, query: page, ...options });
    return answer.dictionary_suggestions;
  }

  /**
   * Polls a transcription until its background optimization has completed or failed, and returns
   * it (check `optimization.status`; the optimized text is `optimization.text`). Returns at once
   * when the transcription has no optimization (optimization is disabled on the service).
   */
  async waitForOptimization(transcription: string | TranscriptionResult, options: WaitOptions = {}): Promise<TranscriptionResult> {
    const id = typeof transcription === "string" ? transcription : transcription.id;
    const deadline = Date.now() + (options.timeout ?? 600_000);
    const interval = options.interval ?? 1000;
    for (;;) {
      const result = await this.getTranscription(id, { signal: options.signal });
      if (!result.optimization || FINISHED_OPTIMIZATION.has(result.optimization.status)) return result;
      if (Date.now() + interval > deadline) {
        const { status, progress } = result.optimization;
        throw new OptimizationTimeoutError(
          `Optimization of ${id} is still ${status} (${progress.chunks_done}/${progress.chunks_total} chunks) after ${options.timeout ?? 600_000} ms.`,
        );
      }
      await new Promise((r) => setTimeout(r, interval));
    }
  }
}

/** Your personal dictionary: misspelling → correct spelling, applied to every transcript. */
export class DictionaryApi {
  constructor(private readonly call: Call) {}

  /** Every entry, sorted by misspelling. */
  async list(options: CallOptions = {}): Promise<DictionaryEntry[]> {
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
  add(misspelling: string, correctSpelling: string, options: CallOptions = {}): Promise<{ entry: DictionaryEntry; created: boolean }> {
    return this.call(OPERATIONS.addDictionaryEntry, { json: { misspelling, correct_spelling: correctSpelling }, ...options });
  }

  /** Deletes the entry with this misspelling and returns it; NotFoundError when there is none. */
  async delete(misspelling: string, options: CallOptions = {}): Promise<DictionaryEntry> {
    const { deleted } = await this.call(OPERATIONS.deleteDictionaryEntry, { query: { misspelling }, ...options });
    return deleted;
  }
}
