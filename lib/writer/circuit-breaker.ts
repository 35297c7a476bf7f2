// A writer that is down costs one quick failure, not a timeout per post: after it could not be
// reached (or failed this many times in a row), it is skipped for a cool-down, during which
// everything is written offline at once. After the cool-down one call tries it again; a success
// closes the breaker. One breaker per process and writer address.

const FAILURES_TO_OPEN = 3;

export type BreakerState = {
  open: boolean;
  /** While open: when the writer is tried again. */
  retryAt: Date | null;
  consecutiveFailures: number;
  lastError: string | null;
  lastErrorAt: Date | null;
  lastSuccessAt: Date | null;
};

export class CircuitBreaker {
  private failures = 0;
  private openUntil = 0;
  private trialRunning = false;
  private lastError: string | null = null;
  private lastErrorAt: Date | null = null;
  private lastSuccessAt: Date | null = null;

  constructor(private readonly cooldownMs: () => number, private readonly now: () => number = Date.now) {}

  /** Whether a call may go to the writer now (while open, only the one trial after the cool-down). */
  allow(): boolean {
    if (this.failures < FAILURES_TO_OPEN && this.openUntil === 0) return true;
    if (this.now() < this.openUntil || this.trialRunning) return false;
    this.trialRunning = true;
    return true;
  }

  succeeded(): void {
    this.failures = 0;
    this.openUntil = 0;
    this.trialRunning = false;
    this.lastSuccessAt = new Date(this.now());
  }

  /** `down`: the writer could not be reached or did not answer in time, so it opens at once. */
  failed(message: string, { down }: { down: boolean }): void {
    this.failures += 1;
    this.trialRunning = false;
    this.lastError = message;
    this.lastErrorAt = new Date(this.now());
    if (down || this.failures >= FAILURES_TO_OPEN) this.openUntil = this.now() + this.cooldownMs();
  }

  /** Why calls are skipped right now, or null when they are not. */
  skipping(): string | null {
    if (this.openUntil === 0 || this.now() >= this.openUntil) return null;
    // When and after what error is in state() and the log; a person reads what happened, in words.
    return `the writer failed just before (${this.lastError}), so it is given a few minutes before it is tried again`;
  }

  state(): BreakerState {
    const open = this.openUntil !== 0 && this.now() < this.openUntil;
    return {
      open,
      retryAt: open ? new Date(this.openUntil) : null,
      consecutiveFailures: this.failures,
      lastError: this.lastError,
      lastErrorAt: this.lastErrorAt,
      lastSuccessAt: this.lastSuccessAt,
    };
  }
}
