"use client";

import { ArrowRight, Pencil, Plus, Trash2 } from "lucide-react";
import { useMemo, useState, type FormEvent } from "react";
import { useLoaded } from "@/app/_lib/use-loaded.ts";
import { addDictionaryEntry, ApiRequestError, deleteDictionaryEntry, listDictionary, type DictionaryEntry } from "@/app/_lib/api.ts";
import { Button, EmptyState, Field, IconButton, LocalTime, Notice, Sheet, useToast } from "@/app/_ui/index.ts";
import styles from "./dictionary.module.css";

// Settings → Dictionary: newest first, so an entry made a moment ago by mistake (a "Fix a word" that
// should have stayed in one note) is the first row, one tap from Delete, and Delete has an Undo.

const newestFirst = (a: DictionaryEntry, b: DictionaryEntry) => b.updated_at.localeCompare(a.updated_at) || a.misspelling.localeCompare(b.misspelling);

export function DictionaryManager() {
  const [query, setQuery] = useState("");
  // The sheet: null closed, "new" to add, an entry to edit.
  const [editing, setEditing] = useState<DictionaryEntry | "new" | null>(null);
  const { data: entries, setData: setEntries, error, reload: load } = useLoaded(async () => (await listDictionary()).sort(newestFirst));
  const toast = useToast();


  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (entries ?? []).filter((e) => !q || e.misspelling.toLowerCase().includes(q) || e.correct_spelling.toLowerCase().includes(q));
  }, [entries, query]);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const entry = { misspelling: String(form.get("misspelling") ?? "").trim(), correct_spelling: String(form.get("correct_spelling") ?? "").trim() };
    try {
      // Renaming the misspelling of an existing entry is a delete of the old one plus an add.
      if (editing && editing !== "new" && editing.misspelling !== entry.misspelling) await deleteDictionaryEntry(editing.misspelling);
      const { created } = await addDictionaryEntry(entry);
      toast(created ? `Added “${entry.misspelling}”.` : `Updated “${entry.misspelling}”.`);
      setEditing(null);
      await load();
    } catch (err) {
      toast(err instanceof ApiRequestError ? err.message : "Could not save.");
    }
  }

  async function remove(entry: DictionaryEntry) {
    try {
      await deleteDictionaryEntry(entry.misspelling);
      setEntries((all) => all?.filter((e) => e !== entry) ?? null);
      toast(`Deleted “${entry.misspelling}” → “${entry.correct_spelling}”.`, {
        label: "Undo",
        onClick: () =>
          void addDictionaryEntry(entry).then(
            () => load(),
            (err: Error) => toast(`Not restored: ${err.message}`),
          ),
      });
    } catch (err) {
      toast((err as Error).message);
    }
  }

  const current = editing && editing !== "new" ? editing : null;
  return (
    <div className="stack">
      <Button block onClick={() => setEditing("new")}>
        <Plus size={18} aria-hidden="true" /> Add a word
      </Button>
      {error && <Notice tone="danger">{error}</Notice>}
      {entries && entries.length > 0 && <Field id="dictionary-search" label="Search" type="search" value={query} onChange={(e) => setQuery(e.target.value)} />}
      {entries === null ? (
        !error && <p className="muted">Loading…</p>
      ) : entries.length === 0 ? (
        <EmptyState icon={<Pencil size={24} />} title="Your dictionary is empty">
          In a note, tap a word the recognizer got wrong and choose “In every note from now on”.
        </EmptyState>
      ) : shown.length === 0 ? (
        <p className="muted">No entry matches.</p>
      ) : (
        <ul className={styles.entries} aria-label="Dictionary entries">
          {shown.map((entry) => (
            <li key={entry.misspelling} className={styles.entry} data-testid="dictionary-entry">
              <span className={styles.pair}>
                <span className={styles.heard}>{entry.misspelling}</span>
                <ArrowRight size={16} aria-label="written as" className={styles.arrow} />
                <span className={styles.written}>{entry.correct_spelling}</span>
              </span>
              <span className={styles.when}>
                {entry.updated_at === entry.created_at ? "Added" : "Changed"} <LocalTime iso={entry.updated_at} />
              </span>
              <span className={styles.buttons}>
                <IconButton label={`Edit ${entry.misspelling}`} icon={<Pencil size={18} aria-hidden="true" />} onClick={() => setEditing(entry)} />
                <IconButton label={`Delete ${entry.misspelling}`} icon={<Trash2 size={18} aria-hidden="true" />} onClick={() => void remove(entry)} />
              </span>
            </li>
          ))}
        </ul>
      )}
      <Sheet open={editing !== null} onClose={() => setEditing(null)} title={current ? `Edit “${current.misspelling}”` : "Add a word"}>
        <form className="stack" onSubmit={save} key={current?.misspelling ?? "new"}>
          <Field id="misspelling" name="misspelling" label="Heard as" required maxLength={100} defaultValue={current?.misspelling} autoComplete="off" />
          <Field id="correct_spelling" name="correct_spelling" label="Write as" required maxLength={200} defaultValue={current?.correct_spelling} autoComplete="off" />
          <Button type="submit" size="large" block>
            {current ? "Save" : "Add"}
          </Button>
        </form>
      </Sheet>
    </div>
  );
}
