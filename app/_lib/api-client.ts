import createClient from "openapi-fetch";
import type { components, paths } from "@/sdk/js/src/generated/openapi.ts";
import { localDb } from "@/app/_lib/local-db.ts";

// The browser's API client: openapi-fetch over the types generated from the OpenAPI document
// (npm run generate:clients), the same types the JS SDK uses, with the app's cookie transport:
// same-origin requests carry the session cookie; every GET answer is also kept in IndexedDB, so a
// page read once can be read again offline (network first, then the saved copy: `fromDevice`);
// errors come back as the API's one error shape and are thrown as ApiRequestError (status 0 = no network).

export type Schemas = components["schemas"];

/** Which field of the request an error is about (validation and refused values name it). */
export type ErrorDetail = { path: string; message: string };

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

export const OFFLINE_MESSAGE = "No connection, and this is not saved on this phone yet.";
const SAVED_AT = "x-voicedraft-saved-at";

/** The key of a saved answer: the path and query, as the request had them. */
const readKey = (url: string) => {
  const u = new URL(url, "http://x");
  return u.pathname + u.search;
};

async function cookieTransport(request: Request): Promise<Response> {
  const reading = request.method === "GET";
  let response: Response;
  try {
    response = await fetch(request, { credentials: "same-origin" });
  } catch {
    const saved = reading ? await savedRead(readKey(request.url)) : undefined;
    if (saved) return Response.json(saved.body, { headers: { [SAVED_AT]: String(saved.savedAt) } });
    throw new ApiRequestError(0, "network_error", reading ? OFFLINE_MESSAGE : "No connection to Voicedraft.");
  }
  if (reading && response.ok) {
    void response
      .clone()
      .json()
      .then((body) => saveRead(readKey(request.url), body))
      .catch(() => undefined);
  }
  return response;
}

export const client = createClient<paths>({ baseUrl: typeof window === "undefined" ? "http://localhost" : window.location.origin, fetch: cookieTransport });

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The answer's body, or the API's error thrown as ApiRequestError. */
export async function ok<T>(call: Promise<Answer<T>>): Promise<T> {
  return (await okRead(call)).data;
}

/** Like ok(), and says whether the answer came from this device's saved copy (offline), and when that was saved. */
export async function okRead<T>(call: Promise<Answer<T>>): Promise<{ data: T; fromDevice: boolean; savedAt?: number }> {
  const { data, error, response } = await call;
  if (!response.ok) {
    const body = error as { error?: { code?: string; message?: string; details?: ErrorDetail[] } } | undefined;
    const details = Array.isArray(body?.error?.details) ? body.error.details : [];
    throw new ApiRequestError(response.status, body?.error?.code ?? "http_error", body?.error?.message ?? `HTTP ${response.status}`, details);
  }
  const savedAt = response.headers.get(SAVED_AT);
  return { data: data as T, fromDevice: savedAt !== null, savedAt: savedAt === null ? undefined : Number(savedAt) };
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
