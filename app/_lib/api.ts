// The browser's API client: same-origin requests carry the session cookie, errors come back as
// the API's one error shape and are thrown as ApiRequestError (status 0 = no network).
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

export async function api<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  let res: Response;
  try {
    res = await fetch(path, { ...init, headers, body, credentials: "same-origin" });
  } catch {
    throw new ApiRequestError(0, "network_error", "No connection to Voicedraft.");
  }
  const data = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
  if (!res.ok) {
    throw new ApiRequestError(res.status, data?.error?.code ?? "http_error", data?.error?.message ?? `HTTP ${res.status}`);
  }
  return data as T;
}

export type DictionaryEntry = { misspelling: string; correct_spelling: string; created_at: string; updated_at: string };

export type Optimization = {
  status: "pending" | "running" | "completed" | "failed";
  progress: { chunks_done: number; chunks_total: number };
  text: string | null;
  error: { code: string; message: string } | null;
};

export type Transcription = {
  id: string;
  created_at: string;
  updated_at: string;
  text: string;
  language: string;
  duration: number;
  engine: string;
  dictionary_replacements: number;
  /** The recording this is a part of, when it was uploaded with recording_id. */
  recording: { id: string; part: number } | null;
  optimization?: Optimization;
};

/** GET /api/v1/recordings/{id}: the parts the server has of one recording, joined in part order. */
export type Recording = {
  id: string;
  parts: { part: number; transcription_id: string; text: string; duration: number; optimization_status: Optimization["status"] | null }[];
  parts_received: number;
  text: string;
  duration: number;
  optimization: Omit<Optimization, "error"> | null;
  created_at: string;
  updated_at: string;
};

export const getRecording = (id: string) => api<Recording>(`/api/v1/recordings/${encodeURIComponent(id)}`);
