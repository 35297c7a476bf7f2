import { db } from "@/lib/db/client.ts";
import { listDictionarySpellings } from "@/lib/dictionary/store/dictionary-entries.ts";
import { composeInsights } from "@/lib/insights/compose-insights.ts";
import { offlineInsightsWriter } from "@/lib/insights/offline-insights.ts";
import { assertOwnedNote, getOwnedNote } from "@/lib/notes/store/owned-note.ts";
import { shownText } from "@/lib/notes/store/shown-text.ts";
import { storedInsights } from "@/lib/insights/store-insights.ts";
import { toRewrite } from "@/lib/rewrites/rewrite-store.ts";
import type { CreateRewriteInput, Rewrite } from "@/lib/rewrites/schemas.ts";
import { resolveRewriteStyle } from "@/lib/rewrites/style-store.ts";
import { writeRewrite } from "@/lib/rewrites/write-rewrite.ts";
import { heavyTurns } from "@/lib/turns/heavy-turns.ts";

// A person's rewrites are written one at a time (a few may wait; more is 429): sixteen at once
// had another person's one rewrite wait 40 s behind them for the writer.
const rewriteTurns = heavyTurns("rewrites", { perPerson: 1, maxWaiting: 8 });

/**
 * Rewrites one of the person's notes in a style and keeps the rewrite beside it (the note is
 * never changed). Written from the text the note shows (their edit, else the clean-up, else the
 * recognized text), with its insights (written now, offline, if the note has none yet).
 */
export function createRewrite({ userId, id, input }: { userId: string; id: string; input: CreateRewriteInput }): Promise<Rewrite> {
  return rewriteTurns(userId, () => createRewriteNow({ userId, id, input }));
}

async function createRewriteNow({ userId, id, input }: { userId: string; id: string; input: CreateRewriteInput }): Promise<Rewrite> {
  const prisma = await db();
  const note = await getOwnedNote(
    { userId, id },
    { id: true, text: true, language: true, title: true, editedAt: true, insights: true, optimization: { select: { status: true, optimizedText: true } } },
  );
  const style = await resolveRewriteStyle({ userId, style: input.style });
  const text = shownText(note);
  const insights =
    storedInsights(note.insights) ??
    (await composeInsights({ input: { text, language: note.language, title: note.title }, previous: null, writer: offlineInsightsWriter }));
  const entries = await listDictionarySpellings({ userId });
  const written = await writeRewrite(style, {
    noteId: id,
    text,
    language: note.language,
    title: note.title,
    insights: insights ?? { title: note.title ?? "", summary: "", key_points: [], action_items: [], written_by: "offline", offline_reason: null, updated_at: new Date().toISOString() },
    terms: entries.map((e) => e.correctSpelling),
  });
  // The note may have been deleted while the writer wrote: the foreign key refuses the row then,
  // and the check inside the create answers 404 instead of a 500.
  const row = await prisma.$transaction(async (tx) => {
    await assertOwnedNote({ userId, id, tx });
    return tx.noteRewrite.create({
      data: {
        userId,
        transcriptionId: id,
        style: style.style,
        styleId: style.styleId,
        styleName: style.name,
        title: written.title,
        text: written.text,
        writtenBy: written.writtenBy,
        offlineReason: written.reason,
      },
    });
  });
  return toRewrite(row);
}
