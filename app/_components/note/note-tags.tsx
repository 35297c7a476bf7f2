"use client";

import { Plus, X } from "lucide-react";
import { useEffect, useMemo, useState, type FormEvent } from "react";
import { listTags, type Tag, type Transcription } from "@/app/_lib/api.ts";
import { saveLabels, SENT_WHEN_ONLINE } from "@/app/_lib/notes/label-queue.ts";
import { Button, Chip, ChipList, Field, Sheet, useToast } from "@/app/_ui/index.ts";
import styles from "./note.module.css";

// A note's tags as chips under its title: a tap on a chip's × takes the tag off (with Undo), "Add
// tag" opens a sheet that offers the person's own tags first, most used first, one tap each, and a
// field for a new one. Tags are queued on the phone and sent at once (label-queue.ts): offline they
// show as set and go once the phone is back online. A recording in parts is one note: the server
// sets the tags on every part.

export const TAGS_PER_NOTE = 10;
const TAG_MAX = 40;
const key = (tag: string) => tag.normalize("NFKC").toLowerCase();

export function NoteTags({
  noteId,
  tags,
  onSaved,
  disabled,
}: {
  noteId: string;
  tags: string[];
  onSaved: (note: Transcription) => void;
  disabled?: boolean;
}) {
  // The tags being sent, shown at once; the note's own once it is saved (or not).
  const [sending, setSending] = useState<string[] | null>(null);
  const [adding, setAdding] = useState(false);
  const toast = useToast();
  const shown = sending ?? tags;

  async function save(next: string[], done?: string, undo?: string[]) {
    setSending(next);
    try {
      const outcome = await saveLabels(noteId, { tags: next });
      const again = undo ? { label: "Undo", onClick: () => void save(undo, "Undone: the tags are as they were.") } : undefined;
      if (outcome.status === "saved") {
        onSaved(outcome.transcription);
        setSending(null);
        if (done) toast(done, again);
      } else if (outcome.status === "offline") {
        // Shown as set (sending stays), and sent once the phone is back online.
        toast(done ? `${done} ${SENT_WHEN_ONLINE}` : "Tags saved on this phone; sent when you are back online.", again);
      } else {
        setSending(null);
        toast(`Tags not saved: ${outcome.message}`);
      }
    } catch (err) {
      setSending(null);
      toast(`Tags not saved: ${(err as Error).message}`);
    }
  }

  const full = shown.length >= TAGS_PER_NOTE;
  return (
    <>
      <ChipList label="Tags">
        {shown.map((tag) => (
          <Chip
            key={tag}
            aria-label={`Remove tag ${tag}`}
            icon={<X size={16} aria-hidden="true" />}
            disabled={disabled}
            onClick={() => void save(shown.filter((t) => t !== tag), `Removed the tag “${tag}”.`, shown)}
            data-testid="note-tag"
          >
            #{tag}
          </Chip>
        ))}
        {/* Beside tags, only "+" (its name says it): the chips stay one row at 360 px. */}
        <Chip
          add
          compact={shown.length > 0}
          aria-label={full ? `${TAGS_PER_NOTE} tags: the most a note has` : "Add tag"}
          icon={<Plus size={16} aria-hidden="true" />}
          disabled={disabled || full}
          onClick={() => setAdding(true)}
          data-testid="add-tag"
        >
          {shown.length ? "" : "Add tag"}
        </Chip>
      </ChipList>
      <AddTagSheet
        open={adding}
        onClose={() => setAdding(false)}
        current={shown}
        onAdd={(tag) => {
          setAdding(false);
          if (!shown.some((t) => key(t) === key(tag))) void save([...shown, tag]);
        }}
      />
    </>
  );
}

/** Your tags not on the note (those matching what is typed), one tap each; or a new one. */
function AddTagSheet({ open, onClose, current, onAdd }: { open: boolean; onClose: () => void; current: string[]; onAdd: (tag: string) => void }) {
  const [all, setAll] = useState<Tag[] | null>(null);
  const [typed, setTyped] = useState("");
  useEffect(() => {
    if (open) listTags().then(setAll, () => setAll([]));
  }, [open]);
  const name = typed.replace(/\s+/g, " ").trim().replace(/^#+\s*/, "");
  const offered = useMemo(() => {
    const on = new Set(current.map(key));
    return (all ?? []).filter((t) => !on.has(key(t.name)) && key(t.name).includes(key(name)));
  }, [all, current, name]);
  const exists = (all ?? []).some((t) => key(t.name) === key(name)) || current.some((t) => key(t) === key(name));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name) return;
    onAdd(offered.find((t) => key(t.name) === key(name))?.name ?? name);
    setTyped("");
  }

  return (
    <Sheet open={open} onClose={onClose} title="Add a tag">
      <form className={styles.tagForm} onSubmit={submit}>
        <Field
          id="new-tag"
          label="Tag"
          value={typed}
          onChange={(e) => setTyped(e.target.value.replace(/[,"/\\]/g, ""))}
          maxLength={TAG_MAX + 2}
          autoComplete="off"
          enterKeyHint="done"
          placeholder="work, ideas, …"
          data-testid="tag-input"
          data-autofocus
        />
        <Button type="submit" disabled={!name || name.length > TAG_MAX}>
          {name && !exists ? `Add “${name}”` : "Add"}
        </Button>
      </form>
      {all === null ? (
        <p className="muted">Loading your tags…</p>
      ) : offered.length ? (
        <>
          <p className={styles.tagHint}>{name ? "Your tags like it" : "Your tags, most used first"}</p>
          <ChipList label="Your tags">
            {offered.slice(0, 24).map((t) => (
              <Chip key={t.name} icon={<Plus size={16} aria-hidden="true" />} onClick={() => (onAdd(t.name), setTyped(""))} data-testid="suggested-tag">
                #{t.name}
              </Chip>
            ))}
          </ChipList>
        </>
      ) : (
        !name && <p className="muted">Type a tag, like “work” or “ideas”. Tags you use show up here for one tap.</p>
      )}
    </Sheet>
  );
}
