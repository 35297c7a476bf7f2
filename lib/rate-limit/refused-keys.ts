import { hashApiKey, isWellFormedApiKey } from "@/lib/api-keys/key-format.ts";
import { setBounded } from "@/lib/bounded-map.ts";
import type { ApiError } from "@/lib/http/errors.ts";
import { rateLimited } from "@/lib/rate-limit/rate-limited.ts";

// A key over its per-minute limit stays over it until the window ends (counts only grow within a
// window), so once a route has refused it, the server's front door (front-door.ts) refuses its
// next requests the same way, before Next routes them: no router, no handler, no key lookup. A
// flood of 40 clients on one key was 680 requests a second, mostly 429, and each went through Next
// first, taking the event loop from a live recording's PATCHes on the same server
// (bench:live-load). Kept in this process only, on globalThis: the front door and the route
// handlers are separate module instances (Next bundles the routes).

const KEPT_MAX = 10_000;
type Refused = { limit: number; resetAt: number };
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
  setBounded((kept.voicedraftRefusedKeys ??= new Map()), hash, { limit, resetAt: now + msBeforeNext }, KEPT_MAX, (old) => old.resetAt <= now);
}

/** Only the API's own routes, which all take a key, but for its description (no key needed). */
const counted = (pathname: string) => pathname.startsWith("/api/v1/") && pathname !== "/api/v1/openapi.json";

/** 429 for a request whose key a route refused this window, as that route would answer it; undefined otherwise. */
export function refusedAtTheDoor(url: string | undefined, authorization: string | undefined): ApiError | undefined {
  const map = kept.voicedraftRefusedKeys;
  if (!map?.size || !url || !authorization) return undefined;
  const pathname = url.split("?", 1)[0];
  if (!counted(pathname)) return undefined;
  const hash = keyHash(authorization);
  const refused = hash ? map.get(hash) : undefined;
  if (!refused) return undefined;
  const left = refused.resetAt - Date.now();
  if (left <= 0) {
    map.delete(hash!);
    return undefined;
  }
  return rateLimited(API_LIMIT_MESSAGE, refused.limit, left);
}

export const API_LIMIT_MESSAGE = "This API key made too many requests this minute.";
