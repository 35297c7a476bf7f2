import { EngineBusyError } from "@/lib/transcription/engines/types.ts";

/**
 * Runs at most `concurrency` tasks at once and lets at most `maxWaiting` wait; beyond that it
 * refuses at once (EngineBusyError → 503 with Retry-After) instead of letting requests pile up.
 */
export class BoundedQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
    private readonly retryAfterSeconds = 5,
  ) {}

  get size(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new EngineBusyError("The recognizer is busy with other recordings; try again shortly.", this.retryAfterSeconds);
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next(); // hands its slot on: `running` stays the same
      else this.running -= 1;
    }
  }
}
