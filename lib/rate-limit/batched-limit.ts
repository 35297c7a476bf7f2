import { limiter, type Limiter, type LimiterOptions } from "@/lib/rate-limit/store.ts";
import { isLimitHit } from "@/lib/rate-limit/rate-limited.ts";
import { errorFields, log } from "@/lib/log.ts";
import { setBounded } from "@/lib/bounded-map.ts";

// A per-minute limit counted here and added to the shared store in batches. Writing every
// request to the database store was an upsert per API call: half of the CPU a request cost
// (bench:api, "per-key limit on"). Now the first request of a window reads the shared count as it
// adds itself; later ones are counted in this process and sent together at most every SEND_MS,
// each send reading back what every process has added. Within one process the limit is exact;
// other processes' requests are seen within SEND_MS of their being counted, so several app
// processes together may exceed a limit by what they take in that second.
const SEND_MS = 1000;
const COUNTS_KEPT_MAX = 10_000;

type Count = {
  shared: number; // the store's count when last read, this process's sent requests included
  unsent: number; // counted here since, not yet added to the store
  resetAt: number; // when the store's window ends (epoch ms)
  readAt: number;
  sending: boolean;
  ready: Promise<void>; // the window's first read
};

export type Taken = { allowed: boolean; remaining: number; msBeforeNext: number };

export class BatchedLimit {
  private readonly counts = new Map<string, Count>();

  constructor(
    private readonly store: Limiter,
    private readonly points: number,
  ) {}

  /** Counts one request of `id`, unless the window's limit is reached. Rejects only when the store fails on a window's first request. */
  async take(id: string): Promise<Taken> {
    const now = Date.now();
    let count = this.counts.get(id);
    if (!count || now >= count.resetAt) {
      count = { shared: 0, unsent: 1, resetAt: Infinity, readAt: now, sending: false, ready: Promise.resolve() };
      count.ready = this.send(id, count);
      setBounded(this.counts, id, count, COUNTS_KEPT_MAX, (old) => old.resetAt <= now);
      try {
        await count.ready;
      } catch (err) {
        if (this.counts.get(id) === count) this.counts.delete(id);
        throw err;
      }
      return this.view(count, count.shared <= this.points);
    }
    await count.ready;
    if (count.shared + count.unsent >= this.points) return this.view(count, false);
    count.unsent++;
    if (!count.sending && Date.now() - count.readAt >= SEND_MS) {
      this.send(id, count).catch((err) => log.warn("could not add to a rate limit's count", { limit: this.store.keyPrefix, ...errorFields(err) }));
    }
    return this.view(count, true);
  }

  private view(count: Count, allowed: boolean): Taken {
    const used = count.shared + count.unsent;
    return { allowed, remaining: Math.max(0, this.points - used), msBeforeNext: Math.max(0, count.resetAt - Date.now()) };
  }

  private async send(id: string, count: Count): Promise<void> {
    const sent = count.unsent;
    count.sending = true;
    try {
      // consume() adds the points even past the limit, then rejects with the count.
      const res = await this.store.consume(id, sent).catch((err: unknown) => {
        if (isLimitHit(err)) return err;
        throw err;
      });
      count.shared = res.consumedPoints;
      count.unsent -= sent;
      count.resetAt = Date.now() + res.msBeforeNext;
    } finally {
      count.readAt = Date.now(); // a failed send is retried after SEND_MS, not by every request
      count.sending = false;
    }
  }
}

const cache = globalThis as unknown as { voicedraftBatchedLimits?: Map<Limiter, BatchedLimit> };

/** One batched count per limiter (and so per name, settings and store) in this process. */
export function batchedLimit(options: LimiterOptions): BatchedLimit {
  const store = limiter(options);
  const map = (cache.voicedraftBatchedLimits ??= new Map());
  let found = map.get(store);
  if (!found) map.set(store, (found = new BatchedLimit(store, options.points)));
  return found;
}
