"use client";

import { useRouter } from "next/navigation";
import { Check, Copy, Pencil, Share2, Trash2, X } from "lucide-react";
import { useState, type FormEvent, type ReactNode } from "react";
import { renameTranscription, type Transcription } from "@/app/_lib/api.ts";
import { postsOfNote, type ContentItem } from "@/app/_lib/posts/content.ts";
import { cancelDeletion, deleteNoteLater } from "@/app/_lib/notes/note-deletion.ts";
import { Button, IconButton, Sheet, useToast } from "@/app/_ui/index.ts";
import type { NoteAction } from "@/app/_components/note/note-actions.tsx";
import styles from "./note.module.css";

// A note's name and what one does with a note as a whole: rename it (one tap on the pencil),
// copy or share its text (Web Share, text only), delete it (entries of the note's "More" list) (with Undo; the posts made from it are
// named first and deleted only when the person says so).

/** The note's title; the pencil beside it renames it in place (empty: named from its first sentence again). */
export function NoteTitle({ note, fallback, onRenamed, disabled }: { note: Transcription; fallback: string; onRenamed: (t: Transcription) => void; disabled?: boolean }) {
  const [renaming, setRenaming] = useState(false);
  const [saving, setSaving] = useState(false);
  const toast = useToast();
  const title = note.title ?? fallback;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get("title") ?? "").trim();
    setSaving(true);
    try {
      onRenamed(await renameTranscription(note.id, value || null));
      setRenaming(false);
    } catch (err) {
      toast(`Not renamed: ${(err as Error).message}`);
    } finally {
      setSaving(false);
    }
  }

  if (renaming) {
    return (
      <form className={styles.rename} onSubmit={submit}>
        <label htmlFor="note-title" className="visually-hidden">
          Name of the note
        </label>
        <input
          id="note-title"
          name="title"
          className={styles.renameInput}
          defaultValue={title}
          maxLength={200}
          autoFocus
          onFocus={(e) => e.currentTarget.select()}
          onKeyDown={(e) => e.key === "Escape" && setRenaming(false)}
          data-testid="rename-input"
        />
        <IconButton type="submit" label="Save the name" icon={<Check size={20} aria-hidden="true" />} disabled={saving} />
        <IconButton label="Cancel" icon={<X size={20} aria-hidden="true" />} onClick={() => setRenaming(false)} />
      </form>
    );
  }
  return (
    <div className={styles.titleRow}>
      <h1 className={styles.title} id="note-heading">
        {title}
      </h1>
      <IconButton label="Rename" icon={<Pencil size={18} aria-hidden="true" />} onClick={() => setRenaming(true)} disabled={disabled} data-testid="rename" />
    </div>
  );
}

/** Share, Copy and Delete for a note, as entries of its "More" list; `confirm` asks before posts are deleted too. */
export function useNoteTools({ note, title, text, offline }: { note: Transcription | null; title: string; text: string; offline: boolean }): {
  actions: NoteAction[];
  confirm: ReactNode;
} {
  const [confirming, setConfirming] = useState<ContentItem[] | null>(null);
  const router = useRouter();
  const toast = useToast();

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast("Copied the text.");
    } catch {
      toast("This browser did not allow copying; select the text and copy it.");
    }
  }

  async function share() {
    if (typeof navigator.share !== "function") return copy();
    try {
      await navigator.share({ title, text });
    } catch (err) {
      if ((err as Error).name !== "AbortError") void copy();
    }
  }

  async function askToDelete() {
    if (!note) return;
    try {
      const posts = await postsOfNote(note.id);
      if (posts.length) return setConfirming(posts);
    } catch (err) {
      return toast(`Not deleted: ${(err as Error).message}`);
    }
    remove(false);
  }

  function remove(withPosts: boolean) {
    if (!note) return;
    setConfirming(null);
    deleteNoteLater(note.id, { withPosts, onFailed: (message) => toast(`The note was not deleted: ${message}`) });
    toast(withPosts ? "Note and its posts deleted." : "Note deleted.", { label: "Undo", onClick: () => cancelDeletion(note.id) });
    router.push("/transcripts");
  }

  const actions: NoteAction[] = [
    { id: "share", label: "Share", icon: <Share2 size={20} aria-hidden="true" />, onSelect: () => void share() },
    { id: "copy", label: "Copy the text", icon: <Copy size={20} aria-hidden="true" />, onSelect: () => void copy() },
    { id: "delete", label: "Delete", icon: <Trash2 size={20} aria-hidden="true" />, onSelect: () => void askToDelete(), disabled: offline, danger: true },
  ];
  const confirm = (
      <Sheet open={confirming !== null} onClose={() => setConfirming(null)} title="Delete this note?">
        <div className="stack">
          <p>
            {confirming?.length === 1 ? "A post was" : `${confirming?.length} posts were`} made from it:
          </p>
          <ul className={styles.postNames}>
            {confirming?.map((post) => <li key={post.id}>{post.title || "Untitled post"}</li>)}
          </ul>
          <Button variant="danger" size="large" block onClick={() => remove(true)} data-testid="delete-with-posts">
            Delete the note and {confirming?.length === 1 ? "its post" : "these posts"}
          </Button>
          <Button variant="secondary" size="large" block onClick={() => remove(false)} data-testid="delete-keep-posts">
            Delete the note, keep the posts
          </Button>
        </div>
      </Sheet>
  );
  return { actions, confirm };
}
