// Whose turn it is with the model on this machine: one generation at a time, in the order asked,
// except that a task on the note the model read last goes before tasks on other notes. The model
// keeps that note's evaluated tokens (runtime.ts), so a note's tasks read it once between them,
// where two notes' tasks taking turns would each read their note again.

type Waiting = { note: string; start: () => void };

export class Turns {
  private running = false;
  private waiting: Waiting[] = [];
  /** The note whose tokens the model holds (the last to have had a turn). */
  private held: string | null = null;

  /** Resolves, with the function that ends the turn, once it is this task's turn; rejects when `signal` aborts first. */
  take(note: string, signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      signal?.throwIfAborted();
      const entry: Waiting = {
        note,
        start: () => {
          signal?.removeEventListener("abort", leave);
          let ended = false;
          resolve(() => {
            if (ended) return;
            ended = true;
            this.running = false;
            this.next();
          });
        },
      };
      const leave = () => {
        this.waiting = this.waiting.filter((w) => w !== entry);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", leave, { once: true });
      this.waiting.push(entry);
      this.next();
    });
  }

  /** Nothing runs and nothing waits. */
  get idle(): boolean {
    return !this.running && this.waiting.length === 0;
  }

  /** Tasks waiting for their turn. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  private next(): void {
    if (this.running || !this.waiting.length) return;
    const sameNote = this.waiting.findIndex((w) => w.note === this.held);
    const [turn] = this.waiting.splice(sameNote === -1 ? 0 : sameNote, 1);
    this.running = true;
    this.held = turn.note;
    turn.start();
  }
}
