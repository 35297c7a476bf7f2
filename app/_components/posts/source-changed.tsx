"use client";

import { RefreshCw } from "lucide-react";
import { useState } from "react";
import { refreshFromNote, type ContentItem } from "@/app/_lib/posts/content.ts";
import { Button, LocalTime, Notice, useToast } from "@/app/_ui/index.ts";

/**
 * The note these posts were made from changed since (a fixed word, an edit, a finished clean-up):
 * "Update" copies its text again; the posts written from the old text then say they are out of
 * date and must be rewritten (or edited) and approved again before they count.
 */
export function SourceChanged({ master, onUpdated }: { master: ContentItem; onUpdated: () => Promise<unknown> }) {
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  async function update() {
    setBusy(true);
    try {
      await refreshFromNote(master.id, master.content_hash);
      await onUpdated();
      toast("Updated from the note. Posts written from the old text are out of date: rewrite them before sharing.");
    } catch (err) {
      toast(`Not updated: ${(err as Error).message}`);
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
      <Button variant="secondary" onClick={update} disabled={busy}>
        Update from the note
      </Button>
    </Notice>
  );
}
