import { env } from "@/lib/env.ts";
import { limiter } from "@/lib/rate-limit/store.ts";
import { isLimitHit, rateLimited } from "@/lib/rate-limit/rate-limited.ts";

// Uploads cost what they cost the recognizer: seconds of audio per account and hour, not requests.
const budget = (limit: number) => limiter({ name: "audio-seconds", points: limit, durationSeconds: 3600 });
const spent = (limit: number) => `This account has transcribed its ${limit} seconds of audio for this hour.`;

/** 429 before decoding when the account has no audio seconds left this hour. */
export async function assertAudioBudgetLeft(userId: string): Promise<void> {
  const limit = env().RATE_LIMIT_AUDIO_SECONDS_PER_HOUR;
  if (!limit) return;
  const used = await budget(limit).get(userId);
  if (used && used.consumedPoints >= limit) throw rateLimited(spent(limit), limit, used.msBeforeNext);
}

/** Charges a decoded recording's seconds; 429 (and no charge) when they do not fit in what is left. */
export async function chargeAudioSeconds({ userId, seconds }: { userId: string; seconds: number }): Promise<void> {
  const limit = env().RATE_LIMIT_AUDIO_SECONDS_PER_HOUR;
  if (!limit) return;
  const cost = Math.max(1, Math.ceil(seconds));
  try {
    await budget(limit).consume(userId, cost);
  } catch (err) {
    if (!isLimitHit(err)) throw err;
    await budget(limit).reward(userId, cost);
    throw rateLimited(spent(limit), limit, err.msBeforeNext);
  }
}
