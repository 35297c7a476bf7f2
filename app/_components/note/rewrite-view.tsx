"use client";

import { ArrowLeft, Check, Copy, Pencil, Share2, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useState, useSyncExternalStore } from "react";
import { ApiRequestError } from "@/app/_lib/api.ts";
import { canShare } from "@/app/_lib/posts/share.ts";
import { copyRewrite, deleteRewrite, editRewrite, getRewrite, shareRewrite, type Rewrite } from "@/app/_lib/posts/rewrites.ts";
import { Badge, Button, ButtonLink, LocalTime, Notice, useToast } from "@/app/_ui/index.ts";
import styles from "./rewrites.module.css";

const noChange = () => () => undefined;

/** One rewrite of a note: read it, edit it, copy or share it, delete it. The note is never changed. */
export function RewriteView({ id, initial }: { id: string; initial?: Rewrite }) {
  const [rewrite, setRewrite] = useState<Rewrite | null>(initial ?? null);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const sharable = useSyncExternalStore(noChange, canShare, () => false);
  const toast = useToast();
  const router = useRouter();

  useEffect(() => {
    if (initial) return;
    getRewrite(id)
      .then(setRewrite)
      .catch((err) => setError(err instanceof ApiRequestError && err.status === 0 ? "No connection, and this rewrite is not on this phone." : (err as Error).message));
  }, [id, initial]);

  if (!rewrite) {
    return error ? (
      <Notice tone="danger" role="alert">
        {error}
      </Notice>
    ) : (
      <p aria-live="polite" className="muted">
        Loading the rewrite…
      </p>
    );
  }
  const back = `/transcripts/${rewrite.transcription_id}`;

  async function save() {
    if (draft === null || !rewrite) return;
    setBusy(true);
    try {
      setRewrite(await editRewrite(rewrite.id, { text: draft }));
      setDraft(null);
      toast("Saved");
    } catch (err) {
      toast(`Not saved: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    if (!rewrite || !window.confirm("Delete this rewrite? Your note stays as it is.")) return;
    setBusy(true);
    try {
      await deleteRewrite(rewrite.id);
      router.push(back);
    } catch (err) {
      toast(`Not deleted: ${(err as Error).message}`);
      setBusy(false);
    }
  }

  return (
    <article className={styles.section} data-testid="rewrite">
      <ButtonLink variant="ghost" href={back}>
        <ArrowLeft size={18} aria-hidden="true" /> Back to the note
      </ButtonLink>
      <h1>{rewrite.title || rewrite.style_name}</h1>
      <p className={styles.meta}>
        <Badge>{rewrite.style_name}</Badge>
        <LocalTime iso={rewrite.created_at} />
        {rewrite.edited_at && <span>· edited</span>}
      </p>
      {rewrite.written_by === "offline" && rewrite.offline_reason && (
        <Notice tone="warning" data-testid="offline-reason">
          Written without the writer: {rewrite.offline_reason}.
        </Notice>
      )}
      {draft !== null ? (
        <>
          <label htmlFor="rewrite-text" className="visually-hidden">
            Text of the rewrite
          </label>
          <textarea id="rewrite-text" className={styles.editor} value={draft} autoFocus spellCheck onChange={(e) => setDraft(e.target.value)} data-testid="rewrite-editor" />
        </>
      ) : (
        <div className={styles.text} data-testid="rewrite-text">
          <RewriteText text={rewrite.text} />
        </div>
      )}
      <div className={styles.actions}>
        {draft !== null ? (
          <>
            <Button onClick={() => void save()} disabled={busy || !draft.trim()}>
              <Check size={18} aria-hidden="true" /> Save
            </Button>
            <Button variant="secondary" onClick={() => setDraft(null)} disabled={busy}>
              Cancel
            </Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={() => setDraft(rewrite.text)}>
              <Pencil size={18} aria-hidden="true" /> Edit
            </Button>
            <Button variant="secondary" onClick={async () => toast((await copyRewrite(rewrite)) ? "Copied" : "Could not copy; select the text instead.")}>
              <Copy size={18} aria-hidden="true" /> Copy
            </Button>
            {sharable && (
              <Button
                className={styles.wide}
                onClick={async () => {
                  if ((await shareRewrite(rewrite)) === "failed") toast("Could not share; copy it instead.");
                }}
              >
                <Share2 size={18} aria-hidden="true" /> Share
              </Button>
            )}
            <Button variant="ghost" className={styles.wide} onClick={() => void remove()} disabled={busy}>
              <Trash2 size={18} aria-hidden="true" /> Delete this rewrite
            </Button>
          </>
        )}
      </div>
    </article>
  );
}

/**
 * The rewrite as read: "- [ ]"/"- [x]" lines as to-dos with a box, "- " lines as bullets, the rest
 * as written. The text itself (copied, shared, edited) stays plain text.
 */
function RewriteText({ text }: { text: string }) {
  return text.split("\n").map((line, i) => {
    const todo = /^\s*[-*] \[( |x|X)\]\s+(.*)$/.exec(line);
    if (todo) {
      const done = todo[1] !== " ";
      return (
        <span key={i} className={`${styles.line} ${styles.todo}`} data-done={done || undefined}>
          <span aria-hidden="true" className={styles.marker}>{done ? "☑" : "☐"}</span>
          <span>
            <span className="visually-hidden">{done ? "Done: " : "To do: "}</span>
            {todo[2]}
          </span>
        </span>
      );
    }
    const bullet = /^\s*[-*•] (.*)$/.exec(line);
    if (bullet) {
      return (
        <span key={i} className={styles.line}>
          <span aria-hidden="true" className={styles.marker}>•</span>
          <span>{bullet[1]}</span>
        </span>
      );
    }
    return (
      <span key={i} className={styles.line}>
        {line || "\u00a0"}
      </span>
    );
  });
}
