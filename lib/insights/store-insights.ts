import { db } from "@/lib/db/client.ts";
import { TRANSACTION_OPTIONS } from "@/lib/db/transaction.ts";
import type { Db } from "@/lib/db/types.ts";
import { notFound } from "@/lib/http/errors.ts";
import { actionItemKey } from "@/lib/insights/compose-insights.ts";
import { Insights } from "@/lib/insights/schemas.ts";
import { lockNote } from "@/lib/notes/store/owned-note.ts";
import { insightsValueOf, setInsights } from "@/lib/notes/store/note-writes.ts";

// Insights live in the note's `insights` JSONB column. Every write holds the note's row lock from
// its read of the stored value to its write, so writers at the same moment take turns and each
// sees the one before: ticks of different items at once all stay, and none fails (a compare-and-set
// with a few retries lost that race under load: 500s). Rewrites are written outside the lock (a
// model takes seconds) and stored under it with the ticks stored by then.
// Written by the note's store with SQL of its own, so the note's updated_at (the edit-conflict check) stays as it is.

/** Rewrites of a text that keeps changing while they are written: the later changes have their own. */
const ATTEMPTS = 4;

/** The stored value as the API shows it; null for none, or for a value that is not insights. */
export function storedInsights(value: unknown): Insights | null {
  const parsed = Insights.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * What the stored value keeps beside the insights, not shown as such: the digest of what they were
 * written from (lib/insights/insights-basis.ts), and when the writer's rewrite of them was queued
 * (while it is on its way the note says insights_pending).
 */
export type InsightsMarks = { basis?: string; writer_queued_at?: string };

export function insightsMarks(value: unknown): InsightsMarks {
  if (!value || typeof value !== "object") return {};
  const { basis, writer_queued_at } = value as Record<string, unknown>;
  return { ...(typeof basis === "string" && { basis }), ...(typeof writer_queued_at === "string" && { writer_queued_at }) };
}

async function writeInsights(tx: Db, id: string, insights: Insights, marks: InsightsMarks): Promise<void> {
  await setInsights(tx, id, { ...insights, ...marks });
}

/**
 * Changes a note's insights in one step under its row lock: `change` gets what is stored now, and
 * nothing else writes them until its answer is stored (null: store nothing). For quick changes such
 * as a tick; 404 when the person has no such note. Returns what is stored now.
 */
export async function changeInsights({
  userId,
  id,
  change,
}: {
  userId: string;
  id: string;
  change: (current: Insights | null) => Insights | null;
}): Promise<Insights | null> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    if (!(await lockNote(tx, userId, id))) throw notFound(`The transcription ${id}`);
    const value = await insightsValueOf(tx, id);
    const current = storedInsights(value);
    const next = change(current);
    if (!next) return current;
    await writeInsights(tx, id, next, insightsMarks(value));
    return next;
  }, TRANSACTION_OPTIONS);
}

/**
 * Marks a note's stored insights as being rewritten by the writer (insights_pending), leaving them
 * and what they were written from as they are. Returns what is stored (null: none, or no note).
 */
export async function markWriterQueued({ userId, id }: { userId: string; id: string }): Promise<Insights | null> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    if (!(await lockNote(tx, userId, id))) return null;
    const value = await insightsValueOf(tx, id);
    const current = storedInsights(value);
    if (current) await writeInsights(tx, id, current, { ...insightsMarks(value), writer_queued_at: new Date().toISOString() });
    return current;
  }, TRANSACTION_OPTIONS);
}

/**
 * Shows a writer's title and summary before its key points and to-dos are written (`show` gets
 * what is stored), when what is stored was written from the same text (`basis`): they stay marked
 * as on their way (insights_pending) until rewriteInsights stores the whole.
 */
export async function showInsightsHeadline({
  userId,
  id,
  basis,
  show,
}: {
  userId: string;
  id: string;
  basis: string;
  show: (current: Insights) => Insights;
}): Promise<void> {
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    if (!(await lockNote(tx, userId, id))) return;
    const value = await insightsValueOf(tx, id);
    const current = storedInsights(value);
    const marks = insightsMarks(value);
    if (!current || marks.basis !== basis) return;
    await writeInsights(tx, id, show(current), marks);
  }, TRANSACTION_OPTIONS);
}

/** `next` with the ticks of `stored` on the items both have (the ticks made while `next` was written). */
function withTicksOf(next: Insights, stored: Insights | null): Insights {
  const ticked = new Map((stored?.action_items ?? []).map((item) => [actionItemKey(item.text), item.done]));
  return { ...next, action_items: next.action_items.map((item) => ({ ...item, done: ticked.get(actionItemKey(item.text)) ?? item.done })) };
}

/**
 * Rewrites a note's insights: `write` computes them from a read of the note (outside any lock: it
 * may ask a model), and they are stored under the row lock with the ticks stored by then. When
 * what they were written from (`basis`: the text, its language, the title) changed meanwhile, they
 * are written again. `write` returning null stores nothing. `writerQueued`: the writer's rewrite
 * follows (the note says insights_pending until it lands). Returns what is stored now (null if the
 * note is gone or nothing was ever written).
 */
export async function rewriteInsights<Note extends { insights: unknown }>({
  userId,
  id,
  read,
  basis,
  write,
  writerQueued = false,
}: {
  userId: string;
  id: string;
  read: (db: Db) => Promise<Note | null>;
  basis: (note: Note) => string;
  write: (note: Note, current: Insights | null) => Promise<Insights | null>;
  writerQueued?: boolean;
}): Promise<Insights | null> {
  const prisma = await db();
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const note = await read(prisma);
    if (!note) return null;
    const next = await write(note, storedInsights(note.insights));
    if (!next) return storedInsights(note.insights);
    const stored = await prisma.$transaction(async (tx) => {
      if (!(await lockNote(tx, userId, id))) return null;
      const now = await read(tx);
      if (!now) return null;
      if (basis(now) !== basis(note)) return "stale" as const;
      const merged = withTicksOf(next, storedInsights(now.insights));
      await writeInsights(tx, id, merged, { basis: basis(now), ...(writerQueued && { writer_queued_at: new Date().toISOString() }) });
      return merged;
    }, TRANSACTION_OPTIONS);
    if (stored !== "stale") return stored;
  }
  throw new Error("the note's text kept changing while its insights were written");
}
