import { db } from "@/lib/db/client.ts";
import { Insights } from "@/lib/insights/schemas.ts";

// Insights live in the note's `insights` JSONB column. Every write is a compare-and-set on the
// value it was computed from, so a tick and a rewrite racing each other never lose either: the
// loser reads again and recomputes (a rewrite keeps the tick; a tick applies to the rewrite).
// Written with SQL of their own so the note's updated_at (the edit-conflict check) stays as it is.

const ATTEMPTS = 4;

/** The stored value as the API shows it; null for none, or for a value that is not insights. */
export function storedInsights(value: unknown): Insights | null {
  const parsed = Insights.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export type InsightsBasis = { insights: Insights | null; raw: unknown };

/**
 * Reads a note, computes its next insights from it and stores them if nothing wrote them in
 * between (else reads again). `compute` returning null stores nothing. Returns what is stored
 * now (null if the note is gone or nothing was ever written).
 */
export async function updateInsights<Note extends { insights: unknown }>({
  read,
  userId,
  id,
  compute,
}: {
  read: () => Promise<Note | null>;
  userId: string;
  id: string;
  compute: (note: Note, current: Insights | null) => Promise<Insights | null> | Insights | null;
}): Promise<Insights | null> {
  const prisma = await db();
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const note = await read();
    if (!note) return null;
    const current = storedInsights(note.insights);
    const next = await compute(note, current);
    if (!next) return current;
    const before = note.insights === null || note.insights === undefined ? null : JSON.stringify(note.insights);
    const count = await prisma.$executeRaw`
      UPDATE "transcriptions" SET "insights" = ${JSON.stringify(next)}::jsonb
      WHERE "id" = ${id} AND "user_id" = ${userId} AND "insights" IS NOT DISTINCT FROM ${before}::jsonb`;
    if (count === 1) return next;
  }
  throw new Error("the insights kept changing while being written");
}
