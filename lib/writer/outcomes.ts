// What the writer's last tasks did, in this process: Settings → Writing and /api/health say what
// these say ("wrote the last 3 notes", "could not write the last 2 notes: …"), never what its
// settings promise. Kept in memory (the last OUTCOMES_KEPT, with when), on globalThis like the
// model itself (lib/writer/local/runtime.ts), since Next bundles lib/ more than once in a process.

import type { WriterTask } from "@/lib/writer/providers.ts";

export type WriterOutcome = {
  at: Date;
  task: WriterTask;
  /** What the task was for: a note's id (or a clean-up's), a question's; outcomes of one are counted once, the latest. */
  key: string | null;
  by: "writer" | "local-model";
  ok: boolean;
  /** Why its answer was not used, in plain words; null when it was. */
  reason: string | null;
};

export const OUTCOMES_KEPT = 50;

const kept = globalThis as unknown as { voicedraftWriterOutcomes?: WriterOutcome[] };
const outcomes = (): WriterOutcome[] => (kept.voicedraftWriterOutcomes ??= []);

export function recordWriterOutcome(outcome: Omit<WriterOutcome, "at"> & { at?: Date }): void {
  const list = outcomes();
  list.push({ ...outcome, at: outcome.at ?? new Date() });
  if (list.length > OUTCOMES_KEPT) list.splice(0, list.length - OUTCOMES_KEPT);
}

/** The outcomes kept under `from` are `to`'s (a clean-up that ran before its note was saved is that note's). */
export function rekeyWriterOutcomes(from: string, to: string): void {
  for (const outcome of outcomes()) if (outcome.key === from) outcome.key = to;
}

/** Tests: a new process. */
export function forgetWriterOutcomes(): void {
  kept.voicedraftWriterOutcomes = [];
}

export type RecentWriting = {
  /** wrote: its last tasks' answers were used; failed: they were not (the rules wrote instead); none: it has written nothing yet here. */
  state: "wrote" | "failed" | "none";
  /** How many notes (and questions) in a row, the latest first, went this way. */
  notes: number;
  questions: number;
  /** The latest failure's reason (state failed), in plain words. */
  reason: string | null;
  /** When the latest of them was. */
  at: Date | null;
  by: "writer" | "local-model" | null;
};

/**
 * The writer's latest run of like outcomes: each note (or question) counted once, by its latest
 * outcome, the newest first, while they went the same way. Only outcomes of `by` (the writer
 * that writes now) count.
 */
export function recentWriting(by?: "writer" | "local-model"): RecentWriting {
  const latest = new Map<string, WriterOutcome>();
  const list = outcomes().filter((o) => !by || o.by === by);
  list.forEach((o, i) => latest.set(o.key ?? `#${i}`, o)); // a later outcome of the same note replaces the earlier
  const newestFirst = [...latest.entries()].sort(([, a], [, b]) => b.at.getTime() - a.at.getTime());
  if (!newestFirst.length) return { state: "none", notes: 0, questions: 0, reason: null, at: null, by: null };
  const [, first] = newestFirst[0];
  let notes = 0;
  let questions = 0;
  for (const [key, o] of newestFirst) {
    if (o.ok !== first.ok) break;
    if (key.startsWith("question:")) questions += 1;
    else notes += 1;
  }
  return { state: first.ok ? "wrote" : "failed", notes, questions, reason: first.ok ? null : first.reason, at: first.at, by: first.by };
}

/** "your last 3 notes", "your last question", "your last 4 notes and questions". */
export function whatItWrote({ notes, questions }: Pick<RecentWriting, "notes" | "questions">): string {
  const n = notes + questions;
  const noun = questions === 0 ? ["note", "notes"] : notes === 0 ? ["question", "questions"] : ["note or question", "notes and questions"];
  return n === 1 ? `your last ${noun[0]}` : `your last ${n} ${noun[1]}`;
}
