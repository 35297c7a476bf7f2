import { env } from "@/lib/env.ts";
import { limiter } from "@/lib/rate-limit/store.ts";
import { isLimitHit, rateLimited } from "@/lib/rate-limit/rate-limited.ts";

/** Counts one sign-up attempt of an address per hour; 429 beyond. */
export async function limitSignUp(ip: string): Promise<void> {
  const limit = env().RATE_LIMIT_SIGNUPS_PER_HOUR;
  if (!limit) return;
  try {
    await limiter({ name: "sign-up", points: limit, durationSeconds: 3600 }).consume(ip);
  } catch (err) {
    if (isLimitHit(err)) throw rateLimited("Too many accounts were created from your network.", limit, err.msBeforeNext);
    throw err;
  }
}
