"use client";

import { useState } from "react";
import { ApiRequestError } from "@/app/_lib/api.ts";
import { editItem, type ContentItem } from "@/app/_lib/content.ts";

/** Title and body of a master or variant; saving sends the hash it was read with (409 when changed since). */
export function ItemEditor({ item, idPrefix, onSaved }: { item: ContentItem; idPrefix: string; onSaved: () => Promise<unknown> }) {
  const [title, setTitle] = useState<string | null>(null);
  const [body, setBody] = useState<string | null>(null);
  const [baseHash, setBaseHash] = useState(item.content_hash);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const dirty = title !== null || body !== null;

  async function save() {
    try {
      await editItem(item.id, { expected_content_hash: baseHash, ...(title !== null && { title }), ...(body !== null && { body }) });
      setTitle(null);
      setBody(null);
      setMessage({ ok: true, text: "Saved." });
      await onSaved();
    } catch (err) {
      const conflict = err instanceof ApiRequestError && err.code === "edit_conflict";
      setMessage({
        ok: false,
        text: conflict ? "It changed meanwhile (elsewhere, or by a generation). Your text is kept below; reload to see theirs." : (err as Error).message,
      });
    }
  }

  function reload() {
    setTitle(null);
    setBody(null);
    setBaseHash(item.content_hash);
    setMessage(null);
  }

  return (
    <div className="stack">
      <label htmlFor={`${idPrefix}-title`}>Title</label>
      <input id={`${idPrefix}-title`} type="text" value={title ?? item.title} onChange={(e) => setTitle(e.target.value)} />
      <label htmlFor={`${idPrefix}-body`}>Text</label>
      <textarea id={`${idPrefix}-body`} value={body ?? item.body} onChange={(e) => setBody(e.target.value)} />
      <div className="row">
        <button type="button" onClick={save} disabled={!dirty}>
          Save
        </button>
        {(dirty || item.content_hash !== baseHash) && (
          <button type="button" className="secondary" onClick={reload}>
            Reload latest
          </button>
        )}
      </div>
      <p aria-live="polite" className={message?.ok ? "ok" : "error"}>
        {message?.text}
      </p>
    </div>
  );
}
