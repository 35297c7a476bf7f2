import { env } from "@/lib/env.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { clientIp } from "@/lib/http/client-ip.ts";
import { limiter } from "@/lib/rate-limit/store.ts";
import { isLimitHit, rateLimited, rateLimitHeaders } from "@/lib/rate-limit/rate-limited.ts";

/** Counts one request of a key (or browser session) per minute; 429 beyond. Returns the RateLimit-* headers. */
export async function limitApiRequest(principal: { userId: string; keyId: string | null }): Promise<Record<string, string>> {
  const limit = env().RATE_LIMIT_API_PER_MINUTE;
  if (!limit) return {};
  try {
    const res = await limiter({ name: "api", points: limit, durationSeconds: 60 }).consume(principal.keyId ?? `session:${principal.userId}`);
    return rateLimitHeaders(limit, res);
  } catch (err) {
    if (isLimitHit(err)) throw rateLimited("This API key made too many requests this minute.", limit, err.msBeforeNext);
    throw err;
  }
}

const presentsKey = (req: Request) => /^Bearer\s+vd_/i.test(req.headers.get("authorization") ?? "");

/**
 * Runs the key lookup, counting the address's refused keys per minute; beyond the limit the
 * address gets 429 before any lookup, whatever key it sends (so the answer reveals nothing).
 */
export async function limitUnknownKeys<T>(req: Request, authenticate: () => Promise<T>): Promise<T> {
  const limit = env().RATE_LIMIT_UNKNOWN_KEYS_PER_MINUTE;
  if (!limit) return authenticate();
  const ip = clientIp(req.headers);
  const refusals = limiter({ name: "unknown-key", points: limit, durationSeconds: 60 });
  const seen = await refusals.get(ip);
  if (seen && seen.consumedPoints >= limit) {
    throw rateLimited("Too many requests with unknown, revoked or expired API keys from your address.", limit, seen.msBeforeNext);
  }
  try {
    return await authenticate();
  } catch (err) {
    if (err instanceof ApiError && err.code === "unauthorized" && presentsKey(req)) await refusals.penalty(ip);
    throw err;
  }
}
