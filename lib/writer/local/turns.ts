import { currentPerson } from "@/lib/turns/person-context.ts";

// Whose turn it is with the model on this machine: one generation at a time. Between people, turns
// go round: when others wait, the next turn is the longest-waiting task of someone other than the
// person who just had one, so a person's single task waits behind at most one task of each person
// ahead of it, however many the others queued (16 rewrites of one person had another's one rewrite
// wait 40 s). Within a person's turns, a task on the note the model read last goes first: the model
// keeps that note's evaluated tokens (runtime.ts), so a note's tasks read it once between them.

type Waiting = { note: string; person: string; start: () => void };

/** Work that names no person (a script, a test, a sweep) takes its turns as this one. */
const ANYONE = "";

export class Turns {
  private running = false;
  private waiting: Waiting[] = [];
  /** The note whose tokens the model holds (the last to have had a turn). */
  private held: string | null = null;
  /** Who had the last turn. */
  private lastPerson: string | null = null;

  /** Resolves, with the function that ends the turn, once it is this task's turn; rejects when `signal` aborts first. */
  take(note: string, signal?: AbortSignal, person = currentPerson() ?? ANYONE): Promise<() => void> {
    return new Promise((resolve, reject) => {
      signal?.throwIfAborted();
      const entry: Waiting = {
        note,
        person,
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
    const others = this.waiting.filter((w) => w.person !== this.lastPerson);
    // Someone else waits: the longest-waiting of theirs (their own held note first, if they hold it).
    const person = others.length ? others[0].person : this.lastPerson;
    const theirs = this.waiting.filter((w) => w.person === person);
    const turn = theirs.find((w) => w.note === this.held) ?? theirs[0];
    this.waiting.splice(this.waiting.indexOf(turn), 1);
    this.running = true;
    this.held = turn.note;
    this.lastPerson = turn.person;
    turn.start();
  }
}
