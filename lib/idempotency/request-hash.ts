import { createHash } from "node:crypto";
import { configure } from "safe-stable-stringify";

// Canonical JSON: object keys sorted, no white space; a value JSON cannot hold is an error, not a
// silent "null" (two different requests must never hash alike).
const canonicalJson = configure({ deterministic: true, strict: true, bigint: false, circularValue: Error });

/**
 * What identifies a request for idempotency: the sha256 of what changes its answer, as canonical
 * JSON, so the same inputs in any key order hash alike. Stored beside every key (Idempotency-Key,
 * client_request_id, client_event_id) and compared when the key comes again.
 */
export function hashRequest(inputs: Record<string, unknown>): string {
  return createHash("sha256").update(canonicalJson(inputs)!).digest("hex");
}
