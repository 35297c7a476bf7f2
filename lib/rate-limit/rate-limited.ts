import { RateLimiterRes } from "rate-limiter-flexible";
import { ApiError } from "@/lib/http/errors.ts";

export const secondsUntil = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** The IETF draft's RateLimit-Limit, -Remaining and -Reset (seconds until the window ends). */
export function rateLimitHeaders(limit: number, remaining: number, msBeforeNext: number): Record<string, string> {
  return {
    "RateLimit-Limit": String(limit),
    "RateLimit-Remaining": String(Math.max(0, remaining)),
    "RateLimit-Reset": String(secondsUntil(msBeforeNext)),
  };
}

/** 429 rate_limited with Retry-After and the RateLimit-* headers; `message` says what was limited. */
export function rateLimited(message: string, limit: number, msBeforeNext: number): ApiError {
  const wait = String(secondsUntil(msBeforeNext));
  return new ApiError("rate_limited", `${message} Try again in ${wait} s.`, {
    headers: { "Retry-After": wait, "RateLimit-Limit": String(limit), "RateLimit-Remaining": "0", "RateLimit-Reset": wait },
  });
}

/** consume() rejects with a RateLimiterRes when the limit is hit, and with an Error when the store fails. */
export const isLimitHit = (err: unknown): err is RateLimiterRes => err instanceof RateLimiterRes;
