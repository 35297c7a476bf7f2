"use client";

import { Wand2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { ApiRequestError } from "@/app/_lib/api.ts";
import { createRewrite, listRewrites, listRewriteStyles, type Rewrite, type RewriteStyle } from "@/app/_lib/posts/rewrites.ts";
import { Button, LocalTime, Notice, RowLink, RowList, Sheet, Spinner } from "@/app/_ui/index.ts";
import type { Transcription } from "@/app/_lib/api.ts";
import { offlineUnavailable } from "@/lib/rewrites/offline-rewrites.ts";
import styles from "./rewrites.module.css";

const NEEDS_WRITER = "Needs a writer — Settings → Writing";

/**
 * Under a note: "Rewrite as…" (a sheet of styles; picking one writes the rewrite, then opens it)
 * and the note's rewrites, newest first. A rewrite is kept beside the note, never replacing it.
 */
/** The note's rewrites and "Rewrite as…"; `open`/`onOpen` let the note's More menu open the sheet too. */
export function NoteRewrites({ noteId, insights, disabled, open, onOpen }: { noteId: string; insights: Transcription["insights"]; disabled?: boolean; open: boolean; onOpen: (open: boolean) => void }) {
  const [rewrites, setRewrites] = useState<Rewrite[] | null>(null);
  const setOpen = onOpen;

  const load = useCallback(async () => {
    try {
      setRewrites(await listRewrites(noteId));
    } catch {
      setRewrites((current) => current ?? []); // offline: the list simply is not shown
    }
  }, [noteId]);
  useEffect(() => {
    // Loading on mount is the point of this effect.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
  }, [load]);

  return (
    <section className={styles.section} aria-label="Rewrites" data-testid="note-rewrites">
      <Button variant="secondary" block onClick={() => setOpen(true)} disabled={disabled} data-testid="rewrite-as">
        <Wand2 size={18} aria-hidden="true" /> Rewrite as…
      </Button>
      {rewrites && rewrites.length > 0 && (
        <>
          <h2 className={styles.heading}>Rewrites</h2>
          <RowList label="Rewrites of this note">
            {rewrites.map((r) => (
              <RowLink
                key={r.id}
                href={`/rewrites/${r.id}`}
                title={r.title || r.style_name}
                meta={
                  <>
                    {r.style_name} · <LocalTime iso={r.created_at} />
                  </>
                }
                testId="rewrite-row"
              />
            ))}
          </RowList>
        </>
      )}
      <RewriteSheet noteId={noteId} insights={insights} open={open} onClose={() => setOpen(false)} />
    </section>
  );
}

function RewriteSheet({ noteId, insights, open, onClose }: { noteId: string; insights: Transcription["insights"]; open: boolean; onClose: () => void }) {
  const [styleList, setStyleList] = useState<{ styles: RewriteStyle[]; writer: boolean } | null>(null);
  const [working, setWorking] = useState<RewriteStyle | null>(null);
  const [error, setError] = useState<string | null>(null);
  const router = useRouter();

  useEffect(() => {
    if (!open) return;
    // Each opening reads the styles afresh (a writer may have been set up meanwhile).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setError(null);
    listRewriteStyles()
      .then((r) => setStyleList({ styles: r.styles, writer: r.writer_configured }))
      .catch((err) => setError(err instanceof ApiRequestError && err.status === 0 ? "No connection. Rewrites need a connection." : (err as Error).message));
  }, [open]);

  async function pick(style: RewriteStyle) {
    setWorking(style);
    setError(null);
    try {
      const rewrite = await createRewrite(noteId, style.id);
      router.push(`/rewrites/${rewrite.id}`);
    } catch (err) {
      setError(err instanceof ApiRequestError && err.status === 0 ? "No connection. Try again when you are back online." : (err as Error).message);
      setWorking(null);
    }
  }

  return (
    <Sheet open={open} onClose={working ? () => undefined : onClose} title="Rewrite as…">
      {working ? (
        <div className={styles.progress} aria-live="polite" data-testid="rewrite-progress">
          <p className="row">
            <Spinner /> Writing “{working.name}”…
          </p>
          <p className="muted">Your note stays as it is; the rewrite is kept beside it.</p>
        </div>
      ) : (
        <>
          {error && (
            <Notice tone="danger" role="alert">
              {error}
            </Notice>
          )}
          {!styleList && !error && (
            <p className="row muted">
              <Spinner /> Loading styles…
            </p>
          )}
          {styleList && (
            <ul className={styles.styleList} data-testid="rewrite-styles">
              {styleList.styles.map((style) => {
                const why = unavailable(style, styleList.writer, insights);
                return (
                  <li key={style.id}>
                    <button type="button" className={styles.styleButton} disabled={why !== null} onClick={() => void pick(style)} data-testid={`style-${style.id}`}>
                      <span className={styles.styleName}>{style.name}</span>
                      <span className={styles.styleHint}>{why ?? hint(style)}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          <p className="muted">
            Your own styles: <a href="/rewrite-styles">Settings → Rewrite styles</a>
          </p>
        </>
      )}
    </Sheet>
  );
}

const HINTS: Record<string, string> = {
  email: "Subject, greeting, the point first",
  todo_list: "What the note commits to doing",
  meeting_notes: "Summary, decisions, action items",
  blog_outline: "Title, hook and sections",
  social_post: "One post, the strongest point first",
};
const hint = (style: RewriteStyle) => (style.built_in ? (HINTS[style.id] ?? "") : "Your style");

/**
 * Why a style cannot be picked for this note, or null: it needs a writer and none is set up, or
 * (without a writer) the rules have nothing in this note to make it from (a to-do list of a note
 * that commits to nothing). Insights not written yet: the server decides.
 */
function unavailable(style: RewriteStyle, writer: boolean, insights: Transcription["insights"]): string | null {
  if (!style.available) return NEEDS_WRITER;
  if (writer || !style.built_in || !insights) return null;
  return offlineUnavailable(style.id, insights);
}
