import { z } from "zod";
import { env } from "@/lib/env.ts";
import { ApiError, type ErrorDetail } from "@/lib/http/errors.ts";

export function validationError(error: z.ZodError, message = "The request is invalid."): ApiError {
  const details: ErrorDetail[] = error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
  return new ApiError("validation_failed", `${message} ${details.map((d) => `${d.path}: ${d.message}`).join("; ")}`, {
    details,
  });
}

// NUL cannot be stored in PostgreSQL text (error 22021) and a lone UTF-16 surrogate is silently
// replaced on its way in, so text carrying either is refused wherever it enters.
const UNSAFE_TEXT = /\0|\p{Cs}/u;

// No request of this API nests deeper; deeper JSON would only exhaust the validator's stack.
const MAX_DEPTH = 32;

/** The path of the first string (or object key) in a value that holds NUL or a lone surrogate. */
export function unsafeTextPath(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === "string") return UNSAFE_TEXT.test(value) ? path.join(".") || "(body)" : undefined;
  if (!value || typeof value !== "object") return undefined;
  if (path.length >= MAX_DEPTH) {
    throw new ApiError("validation_failed", `The request nests deeper than ${MAX_DEPTH} levels.`, {
      details: [{ path: path.join("."), message: "nested too deeply" }],
    });
  }
  for (const [key, child] of Object.entries(value)) {
    if (UNSAFE_TEXT.test(key)) return [...path, "(key)"].join(".");
    const found = unsafeTextPath(child, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

export function assertSafeText(value: unknown, where = "The request"): void {
  const path = unsafeTextPath(value);
  if (path === undefined) return;
  const message = "must not contain NUL characters or unpaired surrogates";
  throw new ApiError("validation_failed", `${where} is invalid. ${path}: ${message}`, { details: [{ path, message }] });
}

// Every id the API takes: the database's UUIDs and the clients' recording ids. Checked where an id
// enters (a path, an MCP argument), so that no other text (NUL, say) reaches a query.
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** 400 validation_failed unless `value` can be an id: 1–64 letters, digits, _ or -. */
export function assertId(name: string, value: string, where = "The path parameter"): void {
  if (ID.test(value)) return;
  const message = "must be 1–64 letters, digits, _ or -";
  throw new ApiError("validation_failed", `${where} ${name} ${message}.`, { details: [{ path: name, message }] });
}

/** Reads at most `limit` bytes of the body as bytes; a larger body is refused without reading it all. */
export async function readBodyBytes(req: Request, limit: number): Promise<Buffer> {
  const tooLarge = () =>
    new ApiError("payload_too_large", `The request body is larger than the limit of ${limit} bytes.`);
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > limit) throw tooLarge();
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Reads at most `limit` bytes of the body as UTF-8 text; a larger body is refused without reading it all. */
export async function readBody(req: Request, limit: number): Promise<string> {
  const bytes = await readBodyBytes(req, limit);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid UTF-8.");
  }
}

/** Parses a JSON body of at most `maxBytes` against a zod schema: 415, 413, 400 invalid_json or 400 validation_failed. */
export async function parseJson<T extends z.ZodType>(req: Request, schema: T, maxBytes = env().MAX_JSON_BODY_BYTES): Promise<z.output<T>> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw new ApiError("unsupported_media_type", "Send the body as JSON with the header Content-Type: application/json.");
  }
  // JSON is UTF-8 (RFC 8259); a body declared in another charset would be misread, so it is refused.
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(type)?.[1].toLowerCase();
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    throw new ApiError("unsupported_media_type", `JSON bodies must be UTF-8; send Content-Type: application/json (charset=${charset} is not accepted).`);
  }
  return parseJsonText(await readBody(req, maxBytes), schema);
}

/** Parses a body already read (e.g. to check its signature first): 400 invalid_json or 400 validation_failed. */
export function parseJsonText<T extends z.ZodType>(text: string, schema: T): z.output<T> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ApiError("invalid_json", `The request body is not valid JSON: ${(err as Error).message}`);
  }
  assertSafeText(data, "The request body");
  const result = schema.safeParse(data);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/**
 * 400 invalid_encoding unless every name and value of the query string is valid percent-encoded
 * UTF-8. URLSearchParams would decode `%FF` or a broken escape to U+FFFD or keep it as typed, so a
 * search for bytes that are not text would silently become a search for something else.
 */
export function assertQueryEncoding(search: string): void {
  for (const part of search.replace(/^\?/, "").split(/[&=]/)) {
    try {
      decodeURIComponent(part.replaceAll("+", " "));
    } catch {
      const shown = part.length > 40 ? `${part.slice(0, 40)}…` : part;
      throw new ApiError("invalid_encoding", `The query string is not valid percent-encoded UTF-8 (at “${shown}”); encode its text as UTF-8, then percent-encode it.`, {
        details: [{ path: "(query)", message: "not percent-encoded UTF-8" }],
      });
    }
  }
}

/** Parses the query string against a zod schema (unknown parameters are refused by strict schemas). */
export function parseQuery<T extends z.ZodType>(req: Request, schema: T): z.output<T> {
  const url = new URL(req.url);
  assertQueryEncoding(url.search);
  const params = url.searchParams;
  const query: Record<string, string> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    if (values.length > 1) {
      throw new ApiError("validation_failed", `The query parameter ${key} is given more than once.`, {
        details: [{ path: key, message: "given more than once" }],
      });
    }
    query[key] = values[0];
  }
  assertSafeText(query, "The query");
  const result = schema.safeParse(query);
  if (!result.success) throw validationError(result.error, "The query is invalid.");
  return result.data;
}
