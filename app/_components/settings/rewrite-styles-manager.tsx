"use client";

import { Plus, Wand2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useLoaded } from "@/app/_lib/use-loaded.ts";
import { ApiRequestError } from "@/app/_lib/api.ts";
import { createRewriteStyle, deleteRewriteStyle, listRewriteStyles, updateRewriteStyle, type RewriteStyle } from "@/app/_lib/posts/rewrites.ts";
import { Button, EmptyState, Field, Notice, Sheet, TextAreaField, useToast } from "@/app/_ui/index.ts";
import { ManagedRow } from "./managed-list.tsx";
import styles from "../note/rewrites.module.css";

type Editing = { style: RewriteStyle | null; name: string; instructions: string; error: string | null; busy: boolean };

/** Settings → Rewrite styles: your own styles (a name and instructions), added, edited and deleted in a sheet. */
export function RewriteStylesManager() {
  const { data: list, error, reload: load } = useLoaded(listRewriteStyles, (err) =>
    err instanceof ApiRequestError && err.status === 0 ? "No connection. Your styles show when you are back online." : (err as Error).message,
  );
  const own = list ? list.styles.filter((s) => !s.built_in) : null;
  const writer = list?.writer_configured ?? true;
  const [editing, setEditing] = useState<Editing | null>(null);
  const toast = useToast();


  const open = (style: RewriteStyle | null) => setEditing({ style, name: style?.name ?? "", instructions: style?.instructions ?? "", error: null, busy: false });

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!editing) return;
    setEditing({ ...editing, busy: true, error: null });
    try {
      const body = { name: editing.name, instructions: editing.instructions };
      if (editing.style) await updateRewriteStyle(editing.style.id, body);
      else await createRewriteStyle(body);
      setEditing(null);
      toast(editing.style ? "Style saved" : "Style added");
      void load();
    } catch (err) {
      setEditing({ ...editing, busy: false, error: (err as Error).message });
    }
  }

  async function remove() {
    if (!editing?.style || !window.confirm(`Delete “${editing.style.name}”? Rewrites written with it are kept.`)) return;
    try {
      await deleteRewriteStyle(editing.style.id);
      setEditing(null);
      toast("Style deleted");
      void load();
    } catch (err) {
      setEditing({ ...editing, error: (err as Error).message });
    }
  }

  return (
    <div className={styles.section}>
      {!writer && (
        <Notice tone="info">Your styles are written by a writer (a language model), and none is set up: see Settings → Writing.</Notice>
      )}
      {error && (
        <Notice tone="danger" role="alert">
          {error}
        </Notice>
      )}
      {own && own.length === 0 && (
        <EmptyState icon={<Wand2 size={28} />} title="No styles of your own yet">
          Add one, such as “Status update for my team: done, next, blocked”.
        </EmptyState>
      )}
      {own && own.length > 0 && (
        <ul className={styles.styleList} aria-label="Your rewrite styles">
          {own.map((style) => (
            <ManagedRow key={style.id} name={style.name} detail={style.instructions} onEdit={() => open(style)} testId="rewrite-style-row" />
          ))}
        </ul>
      )}
      <Button block onClick={() => open(null)} disabled={own === null}>
        <Plus size={18} aria-hidden="true" /> Add a style
      </Button>
      <Sheet open={editing !== null} onClose={() => setEditing(null)} title={editing?.style ? "Edit style" : "New style"}>
        {editing && (
          <form className={styles.section} onSubmit={(e) => void submit(e)}>
            <Field label="Name" value={editing.name} maxLength={60} required onChange={(e) => setEditing({ ...editing, name: e.target.value })} />
            <TextAreaField
              label="What should the writer do?"
              hint="In your words: the shape, the tone, what to leave out."
              value={editing.instructions}
              maxLength={2000}
              rows={5}
              required
              onChange={(e) => setEditing({ ...editing, instructions: e.target.value })}
            />
            {editing.error && (
              <Notice tone="danger" role="alert">
                {editing.error}
              </Notice>
            )}
            <Button type="submit" block disabled={editing.busy}>
              {editing.style ? "Save" : "Add style"}
            </Button>
            {editing.style && (
              <Button variant="danger" block onClick={() => void remove()} disabled={editing.busy}>
                Delete this style
              </Button>
            )}
          </form>
        )}
      </Sheet>
    </div>
  );
}
