import { ApiError } from "@/lib/http/errors.ts";

/** One kind of idempotency key: its name as clients send it, and what a different request means. */
export type KeyKind = { name: string; differs: string };

/** The three kinds of keys clients send. The API's documentation and its 409s both say `differs`. */
export const KEY_KINDS = {
  /** The Idempotency-Key header of an upload (POST /transcribe, /v1/audio/transcriptions). */
  upload: { name: "Idempotency-Key", differs: "a different recording or different options" },
  /** client_request_id of POST /api/v1/content/{id}/variants. */
  variants: { name: "client_request_id", differs: "a different master content, channel, preset or source snapshot" },
  /** client_event_id of a delivery event (share evidence, manual confirmation). */
  deliveryEvent: { name: "client_event_id", differs: "a different event" },
} as const satisfies Record<string, KeyKind>;

/** The OpenAPI document's line for 409 idempotency_conflict. */
export const conflictWhen = (kind: KeyKind) => `The ${kind.name} was used before for ${kind.differs}.`;

export const idempotencyConflict = (kind: KeyKind) =>
  new ApiError("idempotency_conflict", `This ${kind.name} was already used for ${kind.differs}; use a new one.`);

/**
 * What a key that comes again gets: nothing when it is new (null), the earlier answer when the
 * request is the same (same hash), 409 idempotency_conflict when it is another request.
 */
export function replayOrConflict<T extends { requestHash: string }>(kind: KeyKind, earlier: T | null, hash: string): T | null {
  if (!earlier) return null;
  if (earlier.requestHash !== hash) throw idempotencyConflict(kind);
  return earlier;
}
