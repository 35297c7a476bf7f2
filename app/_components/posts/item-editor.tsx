"use client";

import { useState } from "react";
import { Check } from "lucide-react";
import { ApiRequestError } from "@/app/_lib/api.ts";
import { editItem, type ContentItem } from "@/app/_lib/posts/content.ts";
import { Button, Field, Notice, TextAreaField } from "@/app/_ui/index.ts";

/** Title and text of the source (a master); saving sends the hash it was read with (409 when changed since). */
export function ItemEditor({ item, idPrefix, onSaved }: { item: ContentItem; idPrefix: string; onSaved: () => Promise<unknown> }) {
  const [title, setTitle] = useState<string | null>(null);
  const [body, setBody] = useState<string | null>(null);
  const [baseHash, setBaseHash] = useState(item.content_hash);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const dirty = title !== null || body !== null;

  async function save() {
    setSaving(true);
    try {
      const saved = await editItem(item.id, { expected_content_hash: baseHash, ...(title !== null && { title }), ...(body !== null && { body }) });
      setTitle(null);
      setBody(null);
      setBaseHash(saved.content_hash);
      setMessage({ ok: true, text: "Saved. Posts written from the earlier text are marked out of date." });
      await onSaved();
    } catch (err) {
      const conflict = err instanceof ApiRequestError && err.code === "edit_conflict";
      setMessage({ ok: false, text: conflict ? "It changed meanwhile. Your text is kept here; “Use the latest” shows the other one." : (err as Error).message });
    } finally {
      setSaving(false);
    }
  }

  function useLatest() {
    setTitle(null);
    setBody(null);
    setBaseHash(item.content_hash);
    setMessage(null);
  }

  return (
    <div className="stack">
      <Field id={`${idPrefix}-title`} label="Title" value={title ?? item.title} onChange={(e) => setTitle(e.target.value)} maxLength={300} />
      <TextAreaField id={`${idPrefix}-body`} label="Text" value={body ?? item.body} onChange={(e) => setBody(e.target.value)} rows={10} />
      {message && <Notice tone={message.ok ? "success" : "danger"}>{message.text}</Notice>}
      <div className="row">
        <Button onClick={save} disabled={!dirty || saving}>
          <Check size={18} aria-hidden="true" /> Save text
        </Button>
        {(dirty || item.content_hash !== baseHash) && (
          <Button variant="secondary" onClick={useLatest}>
            Use the latest
          </Button>
        )}
      </div>
    </div>
  );
}
