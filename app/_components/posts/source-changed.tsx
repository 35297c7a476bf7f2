"use client";

import { CircleCheck, RefreshCw } from "lucide-react";
import { useState } from "react";
import { updateFromNote, type ContentItem } from "@/app/_lib/posts/content.ts";
import { Button, LocalTime, Notice } from "@/app/_ui/index.ts";

const posts = (n: number) => `${n} ${n === 1 ? "post" : "posts"}`;

/** What the update did, said where the warning was (a toast sat over the posts it was about). */
export function updatedMessage(rewriting: number, approved: number): string {
  const rewritten = rewriting ? `Updated from the note: writing ${posts(rewriting)} again from its new text.` : "Updated from the note.";
  const kept = approved ? ` ${approved === 1 ? "The approved post keeps" : `${approved} approved posts keep`} the text you approved: rewrite ${approved === 1 ? "it" : "them"} when you want the new one.` : "";
  return rewritten + kept;
}

/**
 * The note these posts were made from changed since (a fixed word, an edit, a finished clean-up).
 * One tap: "Update from the note" copies its text again and writes every post that is not
 * approved again from it, in one step rather than one per post. Approved posts say they are out of
 * date and keep their approval until the person rewrites them; what it did stays said here.
 */
export function SourceChanged({
  master,
  approved,
  onUpdated,
}: {
  master: ContentItem;
  /** How many of its posts are approved (they are kept as they are). */
  approved: number;
  onUpdated: (message: string) => Promise<unknown>;
}) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  async function update() {
    setBusy(true);
    setFailed(null);
    try {
      const { rewriting } = await updateFromNote(master.id, master.content_hash);
      await onUpdated(updatedMessage(rewriting.length, approved));
    } catch (err) {
      setFailed(`Not updated: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Notice tone="warning" icon={<RefreshCw size={18} aria-hidden="true" />} role="status" data-testid="source-changed">
      <p>
        The note changed after these posts were made
        {master.source_note_updated_at && (
          <>
            {" "}
            (<LocalTime iso={master.source_note_updated_at} />)
          </>
        )}
        . They still have its old words.
      </p>
      {failed && <p role="alert">{failed}</p>}
      <Button variant="secondary" onClick={update} disabled={busy}>
        {busy ? "Updating…" : "Update from the note"}
      </Button>
    </Notice>
  );
}

/** After the update: what it did, in the place of the warning. */
export function SourceUpdated({ message }: { message: string }) {
  return (
    <Notice tone="success" icon={<CircleCheck size={18} aria-hidden="true" />} role="status" data-testid="source-updated">
      {message}
    </Notice>
  );
}
