import type { z } from "zod";
import type {
  DictionarySuggestion as DictionarySuggestionSchema,
  EditTranscriptionInput,
  EditTranscriptionResult,
  Optimization as OptimizationSchema,
  Recording as RecordingSchema,
  TranscriptionList as TranscriptionListSchema,
  TranscriptionResult,
} from "@/lib/transcription/schemas.ts";
import type { DictionaryEntry as DictionaryEntrySchema, UpsertEntryInput } from "@/lib/dictionary/schemas.ts";
import { localDb } from "@/app/_lib/local-db.ts";

// The browser's API client: same-origin requests carry the session cookie, errors come back as
// the API's one error shape and are thrown as ApiRequestError (status 0 = no network).
// Wire types come from the server's zod schemas (types only: nothing of the server is bundled).
//
// Every GET answer is also kept in IndexedDB, so a page read once can be read again offline:
// network first, then the saved copy (`fromDevice` says which one the caller got).
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

export const OFFLINE_MESSAGE = "No connection, and this is not saved on this phone yet.";

export async function api<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  return (await apiRead<T>(path, init)).data;
}

/** Like api(), and says whether the answer came from this device's saved copy (offline), and when that was saved. */
export async function apiRead<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<{ data: T; fromDevice: boolean; savedAt?: number }> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  const reading = (init.method ?? "GET").toUpperCase() === "GET";
  let res: Response;
  try {
    res = await fetch(path, { ...init, headers, body, credentials: "same-origin" });
  } catch {
    const saved = reading ? await savedRead(path) : undefined;
    if (saved) return { data: saved.body as T, fromDevice: true, savedAt: saved.savedAt };
    throw new ApiRequestError(0, "network_error", reading ? OFFLINE_MESSAGE : "No connection to Voicedraft.");
  }
  const data = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
  if (!res.ok) {
    throw new ApiRequestError(res.status, data?.error?.code ?? "http_error", data?.error?.message ?? `HTTP ${res.status}`);
  }
  if (reading) void saveRead(path, data);
  return { data: data as T, fromDevice: false };
}

/** This device's saved copy of one GET answer, if any. */
export async function savedRead(path: string): Promise<{ body: unknown; savedAt: number } | undefined> {
  try {
    return await (await localDb()).get("reads", path);
  } catch {
    return undefined; // no IndexedDB (private mode): nothing saved
  }
}

/** Keeps (or replaces) the saved copy of one GET answer, e.g. after a successful edit. */
export async function saveRead(path: string, body: unknown): Promise<void> {
  try {
    await (await localDb()).put("reads", { path, body, savedAt: Date.now() });
  } catch {
    // best effort: offline reading is a convenience, never a reason to fail a request
  }
}

/**
 * After sign-in and sign-out: no saved page of one person is shown to the next. (Unsent edits
 * stay: sent with someone else's session the server refuses them as unknown notes.)
 */
export async function forgetSavedReads(): Promise<void> {
  try {
    await (await localDb()).clear("reads");
  } catch {
    // nothing saved
  }
}

export type DictionaryEntry = z.output<typeof DictionaryEntrySchema>;
export type NewDictionaryEntry = z.input<typeof UpsertEntryInput>;
export type DictionarySuggestion = z.output<typeof DictionarySuggestionSchema>;
export type Optimization = z.output<typeof OptimizationSchema>;
export type Transcription = z.output<typeof TranscriptionResult>;
export type TranscriptionList = z.output<typeof TranscriptionListSchema>;
export type EditedTranscription = z.output<typeof EditTranscriptionResult>;
export type TranscriptionEdit = z.input<typeof EditTranscriptionInput>;
/** GET /api/v1/recordings/{id}: the parts the server has of one recording, joined in part order. */
export type Recording = z.output<typeof RecordingSchema>;

export const transcriptionPath = (id: string) => `/api/v1/transcriptions/${encodeURIComponent(id)}`;
/**
 * Adds a word to the user's dictionary, or respells the entry with the same misspelling (`created`
 * says which). Only the entry's two fields are sent: the dictionary refuses unknown keys, and a
 * suggestion, say, also carries how often it was seen.
 */
export async function addDictionaryEntry({ misspelling, correct_spelling }: NewDictionaryEntry): Promise<{ created: boolean }> {
  return api("/api/v1/dictionary/add", { method: "POST", json: { misspelling, correct_spelling } });
}

export const getRecording = (id: string) => api<Recording>(`/api/v1/recordings/${encodeURIComponent(id)}`);
