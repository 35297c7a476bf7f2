import { EngineBusyError } from "@/lib/transcription/recognizers/types.ts";
import { URGENCY_RANK, type Urgency } from "@/lib/transcription/recognizers/priority.ts";

type Waiter = { rank: number; start: () => void; cancel: (reason: unknown) => void };

/**
 * Runs at most `concurrency` tasks at once and lets at most `maxWaiting` wait; beyond that it
 * refuses at once (EngineBusyError → 503 with Retry-After) instead of letting requests pile up.
 * A caller whose signal aborts is answered at once: a waiting task never starts; a running one
 * (which may not be interruptible, like whisper.cpp) keeps its slot until it really ends.
 * Waiting tasks start by urgency (a live recording's piece before an upload's, an upload's before
 * background work such as the second pass), in arrival order within one urgency.
 */
export class BoundedQueue {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
    /** Seconds a refused caller should wait, fixed or estimated from the work in hand. */
    private readonly retryAfterSeconds: number | (() => number) = 5,
  ) {}

  get size(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  run<T>(task: () => Promise<T>, signal?: AbortSignal, urgency: Urgency = "normal"): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.running >= this.concurrency && this.waiting.length >= this.maxWaiting) {
      const retryAfter = typeof this.retryAfterSeconds === "number" ? this.retryAfterSeconds : this.retryAfterSeconds();
      return Promise.reject(new EngineBusyError("The recognizer is busy with other recordings; try again shortly.", retryAfter));
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        const index = this.waiting.indexOf(waiter);
        if (index !== -1) this.waiting.splice(index, 1);
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        rank: URGENCY_RANK[urgency],
        start: () => {
          // The slot is free before the caller hears the outcome.
          const settle = (answer: () => void) => {
            signal?.removeEventListener("abort", onAbort);
            this.release();
            answer();
          };
          Promise.resolve()
            .then(task)
            .then(
              (value) => settle(() => resolve(value)),
              (err: unknown) => settle(() => reject(err)),
            );
        },
        cancel: (reason) => {
          signal?.removeEventListener("abort", onAbort);
          reject(reason);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      if (this.running < this.concurrency) {
        this.running += 1;
        waiter.start();
      } else {
        const after = this.waiting.findIndex((w) => w.rank > waiter.rank);
        this.waiting.splice(after === -1 ? this.waiting.length : after, 0, waiter);
      }
    });
  }

  /** Refuses every waiting task with `reason` (running ones finish). */
  cancelWaiting(reason: unknown): void {
    for (const waiter of this.waiting.splice(0)) waiter.cancel(reason);
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next.start(); // hands its slot on: `running` stays the same
    else this.running -= 1;
  }
}
