import { env } from "@/lib/env.ts";
import { setBounded } from "@/lib/bounded-map.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { clientIp } from "@/lib/http/client-ip.ts";
import { limiter } from "@/lib/rate-limit/store.ts";
import { batchedLimit } from "@/lib/rate-limit/batched-limit.ts";
import { rateLimited, rateLimitHeaders } from "@/lib/rate-limit/rate-limited.ts";
import { API_LIMIT_MESSAGE, rememberRefusedKey } from "@/lib/rate-limit/refused-keys.ts";
import type { RateLimiterRes } from "rate-limiter-flexible";

/**
 * Counts one request of a key (or browser session) per minute; 429 beyond. Returns the RateLimit-*
 * headers. Counted in batches (batched-limit.ts): the store is written about once a second per
 * key and process, not on every request.
 */
export async function limitApiRequest(principal: { userId: string; keyId: string | null }, req?: Request): Promise<Record<string, string>> {
  const limit = env().RATE_LIMIT_API_PER_MINUTE;
  if (!limit) return {};
  const taken = await batchedLimit({ name: "api", points: limit, durationSeconds: 60 }).take(principal.keyId ?? `session:${principal.userId}`);
  if (!taken.allowed) {
    // Its next requests this window are refused before Next routes them (refused-keys.ts).
    if (principal.keyId && req) rememberRefusedKey(req.headers.get("authorization"), limit, taken.msBeforeNext);
    throw rateLimited(API_LIMIT_MESSAGE, limit, taken.msBeforeNext);
  }
  return rateLimitHeaders(limit, taken.remaining, taken.msBeforeNext);
}

const presentsKey = (req: Request) => /^Bearer\s+vd_/i.test(req.headers.get("authorization") ?? "");

// The refusal count of each address as this process last read or wrote it. Reading the store on
// every request was one database round trip per API call (a third of a millisecond of CPU, as
// much as the key lookup itself) only to learn "no refusals". A count read from the store is
// trusted for REFUSALS_FRESH_MS; this process's own refusals update it at once, so within one
// process the limit is exact, and refusals counted by other app processes (the database store
// is shared) are seen within that second. An address over the limit stays refused from memory
// until its window ends (counts only grow within a window).
const REFUSALS_FRESH_MS = 1000;
const REFUSALS_KEPT_MAX = 10_000;
type Refusals = { consumed: number; resetAt: number; readAt: number };
const kept = globalThis as unknown as { voicedraftRefusals?: Map<string, Refusals> };

function remember(id: string, res: RateLimiterRes | null, now: number): Refusals {
  const map = (kept.voicedraftRefusals ??= new Map());
  const refusals = res
    ? { consumed: res.consumedPoints, resetAt: now + res.msBeforeNext, readAt: now }
    : { consumed: 0, resetAt: Infinity, readAt: now };
  setBounded(map, id, refusals, REFUSALS_KEPT_MAX, (old) => old.resetAt <= now || now - old.readAt > REFUSALS_FRESH_MS);
  return refusals;
}

/**
 * Runs the key lookup, counting the address's refused keys per minute; beyond the limit the
 * address gets 429 before any lookup, whatever key it sends (so the answer reveals nothing).
 */
export async function limitUnknownKeys<T>(req: Request, authenticate: () => Promise<T>): Promise<T> {
  const limit = env().RATE_LIMIT_UNKNOWN_KEYS_PER_MINUTE;
  if (!limit) return authenticate();
  const ip = clientIp(req.headers);
  const refusals = limiter({ name: "unknown-key", points: limit, durationSeconds: 60 });
  const id = `${limit}:${ip}`;
  const now = Date.now();
  let seen = kept.voicedraftRefusals?.get(id);
  if (!seen || seen.resetAt <= now || (seen.consumed < limit && now - seen.readAt > REFUSALS_FRESH_MS)) {
    seen = remember(id, await refusals.get(ip), now);
  }
  if (seen.consumed >= limit) {
    throw rateLimited("Too many requests with unknown, revoked or expired API keys from your address.", limit, seen.resetAt - now);
  }
  try {
    return await authenticate();
  } catch (err) {
    if (err instanceof ApiError && err.code === "unauthorized" && presentsKey(req)) remember(id, await refusals.penalty(ip), Date.now());
    throw err;
  }
}
