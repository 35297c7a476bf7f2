import { z } from "zod";
import { ApiError } from "@/lib/http/errors.ts";

export const IdempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, "must be 1–255 visible ASCII characters")
  .optional();

/** The request's Idempotency-Key header, validated (400 when malformed). */
export function parseIdempotencyKey(req: Request): string | undefined {
  const parsed = IdempotencyKey.safeParse(req.headers.get("idempotency-key") ?? undefined);
  if (!parsed.success) {
    throw new ApiError("validation_failed", "The Idempotency-Key header must be 1–255 visible ASCII characters.", {
      details: [{ path: "Idempotency-Key", message: "must be 1–255 visible ASCII characters" }],
    });
  }
  return parsed.data;
}
