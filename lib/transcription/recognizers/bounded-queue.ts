import { EngineBusyError } from "@/lib/transcription/recognizers/types.ts";
import { URGENCY_RANK, type Urgency } from "@/lib/transcription/recognizers/priority.ts";

const BACKGROUND = URGENCY_RANK.background;

type Waiter = { rank: number; start: () => void; cancel: (reason: unknown) => void };

/**
 * Runs at most `concurrency` tasks at once and lets at most `maxWaiting` wait; beyond that it
 * refuses at once (EngineBusyError → 503 with Retry-After) instead of letting requests pile up.
 * A caller whose signal aborts is answered at once: a waiting task never starts; a running one
 * (which may not be interruptible, like whisper.cpp) keeps its slot until it really ends.
 * Waiting tasks start by urgency (a live recording's piece before an upload's, an upload's before
 * background work such as the second pass), in arrival order within one urgency.
 *
 * `backgroundYields`: background tasks hold no slot against more urgent ones (a live piece starts
 * beside them, up to `concurrency` of its own). For a recognizer whose background runs take only
 * the CPU others leave (PocketSphinx at the lowest priority): a minute's second pass held one of
 * the two slots for half a minute under load, and the live pieces queued behind it until the
 * queue refused them (bench:live-load). Not for one whose runs each hold memory (whisper).
 */
export class BoundedQueue {
  private running = 0;
  private runningBackground = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
    /** Seconds a refused caller should wait, fixed or estimated from the work in hand. */
    private readonly retryAfterSeconds: number | (() => number) = 5,
    private readonly options: { backgroundYields?: boolean } = {},
  ) {}

  get size(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  run<T>(task: () => Promise<T>, signal?: AbortSignal, urgency: Urgency = "normal"): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const rank = URGENCY_RANK[urgency];
    if (!this.mayStart(rank) && this.waiting.length >= this.maxWaiting) {
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
        rank,
        start: () => {
          this.running += 1;
          if (rank === BACKGROUND) this.runningBackground += 1;
          // The slot is free before the caller hears the outcome.
          const settle = (answer: () => void) => {
            signal?.removeEventListener("abort", onAbort);
            this.release(rank);
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
      if (this.mayStart(rank)) {
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

  /** Whether a task of this rank may start now: a free slot, counting background tasks only against background ones when they yield. */
  private mayStart(rank: number): boolean {
    const holding = this.options.backgroundYields && rank < BACKGROUND ? this.running - this.runningBackground : this.running;
    return holding < this.concurrency;
  }

  private release(rank: number): void {
    this.running -= 1;
    if (rank === BACKGROUND) this.runningBackground -= 1;
    // In order of urgency: when the first cannot start, none after it can (they are as or less urgent).
    while (this.waiting.length && this.mayStart(this.waiting[0].rank)) this.waiting.shift()!.start();
  }
}
