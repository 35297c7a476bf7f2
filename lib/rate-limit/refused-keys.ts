import { hashApiKey, isWellFormedApiKey } from "@/lib/api-keys/key-format.ts";
import { setBounded } from "@/lib/bounded-map.ts";
import type { ApiError } from "@/lib/http/errors.ts";
import { isKeyedApiPath } from "@/lib/http/key-turns.ts";
import { rateLimited } from "@/lib/rate-limit/rate-limited.ts";

// A key over its per-minute limit stays over it until the window ends (counts only grow within a
// window), so once a route has refused it, the server's front door (front-door.ts) refuses its
// next requests the same way, before Next routes them: no router, no handler, no key lookup. A
// flood of 40 clients on one key was 680 requests a second, mostly 429, and each went through Next
// first, taking the event loop from a live recording's PATCHes on the same server
// (bench:live-load). Kept in this process only, on globalThis: the front door and the route
// handlers are separate module instances (Next bundles the routes).
//
// A client that keeps sending after its 429 gets each next one up to a second later (as nginx's
// limit_req delays what goes beyond a rate): the flood was still 1,450 refusals a second on the
// event loop, with a log line each, and a live recording's Stop on the same server took 4.8× as
// long as alone. A client that waits Retry-After, as it is asked to, is never held.

const KEPT_MAX = 10_000;
const HOLD_MS = 1000;
type Refused = { limit: number; resetAt: number; atTheDoor: number };
const kept = globalThis as unknown as { voicedraftRefusedKeys?: Map<string, Refused> };

/** The API key a Bearer header carries (read as authenticateApiKey reads it), hashed as it is stored; undefined for any other header. */
function keyHash(authorization: string | null | undefined): string | undefined {
  const key = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  return key && isWellFormedApiKey(key) ? hashApiKey(key) : undefined;
}

/** A route refused this request's key (429) until `msBeforeNext` from now: its next requests are refused at the door. */
export function rememberRefusedKey(authorization: string | null, limit: number, msBeforeNext: number): void {
  const hash = keyHash(authorization);
  if (!hash || msBeforeNext <= 0) return;
  const now = Date.now();
  setBounded((kept.voicedraftRefusedKeys ??= new Map()), hash, { limit, resetAt: now + msBeforeNext, atTheDoor: 0 }, KEPT_MAX, (old) => old.resetAt <= now);
}

/**
 * 429 for a request whose key a route refused this window, as that route would answer it, with how
 * many the door refused this window (this one included) and how long to hold the answer; undefined
 * otherwise.
 */
export function refusedAtTheDoor(url: string | undefined, authorization: string | undefined): { error: ApiError; count: number; holdMs: number } | undefined {
  const map = kept.voicedraftRefusedKeys;
  if (!map?.size || !url || !authorization) return undefined;
  const pathname = url.split("?", 1)[0];
  if (!isKeyedApiPath(pathname)) return undefined;
  const hash = keyHash(authorization);
  const refused = hash ? map.get(hash) : undefined;
  if (!refused) return undefined;
  const left = refused.resetAt - Date.now();
  if (left <= 0) {
    map.delete(hash!);
    return undefined;
  }
  refused.atTheDoor += 1;
  return { error: rateLimited(API_LIMIT_MESSAGE, refused.limit, left), count: refused.atTheDoor, holdMs: Math.min(HOLD_MS, left) };
}

export const API_LIMIT_MESSAGE = "This API key made too many requests this minute.";
