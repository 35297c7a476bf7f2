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

/** Reads at most `limit` bytes of the body; a larger body is refused without reading it all. */
async function readBody(req: Request, limit: number): Promise<string> {
  const tooLarge = () =>
    new ApiError("payload_too_large", `The request body is larger than the limit of ${limit} bytes.`);
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > limit) throw tooLarge();
  if (!req.body) return "";
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
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}

/** Parses a JSON body against a zod schema: 415, 413, 400 invalid_json or 400 validation_failed. */
export async function parseJson<T extends z.ZodType>(req: Request, schema: T): Promise<z.output<T>> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw new ApiError("unsupported_media_type", "Send the body as JSON with the header Content-Type: application/json.");
  }
  const text = await readBody(req, env().MAX_JSON_BODY_BYTES);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ApiError("invalid_json", `The request body is not valid JSON: ${(err as Error).message}`);
  }
  const result = schema.safeParse(data);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** Parses the query string against a zod schema (unknown parameters are refused by strict schemas). */
export function parseQuery<T extends z.ZodType>(req: Request, schema: T): z.output<T> {
  const params = new URL(req.url).searchParams;
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
  const result = schema.safeParse(query);
  if (!result.success) throw validationError(result.error, "The query is invalid.");
  return result.data;
}
