"use client";

import { useCallback, useEffect, useMemo, useState, type FormEvent } from "react";
import { addDictionaryEntry, ApiRequestError, deleteDictionaryEntry, listDictionary, type DictionaryEntry } from "@/app/_lib/api.ts";

export function DictionaryManager() {
  const [entries, setEntries] = useState<DictionaryEntry[] | null>(null);
  const [query, setQuery] = useState("");
  const [editing, setEditing] = useState<DictionaryEntry | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const load = useCallback(async () => {
    try {
      setEntries(await listDictionary());
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  }, []);
  useEffect(() => {
    // Loading on mount is the point of this effect.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
  }, [load]);

  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (entries ?? []).filter((e) => !q || e.misspelling.toLowerCase().includes(q) || e.correct_spelling.toLowerCase().includes(q));
  }, [entries, query]);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const entry = { misspelling: String(form.get("misspelling") ?? ""), correct_spelling: String(form.get("correct_spelling") ?? "") };
    try {
      // Renaming the misspelling of an existing entry is a delete of the old one plus an add.
      if (editing && editing.misspelling !== entry.misspelling.trim()) {
        await deleteDictionaryEntry(editing.misspelling);
      }
      const { created } = await addDictionaryEntry(entry);
      setMessage({ ok: true, text: created ? `Added “${entry.misspelling}”.` : `Updated “${entry.misspelling}”.` });
      setEditing(null);
      formElement.reset();
      await load();
    } catch (err) {
      setMessage({ ok: false, text: err instanceof ApiRequestError ? err.message : "Could not save." });
    }
  }

  async function remove(entry: DictionaryEntry) {
    if (!confirm(`Delete “${entry.misspelling}”?`)) return;
    try {
      await deleteDictionaryEntry(entry.misspelling);
      setMessage({ ok: true, text: `Deleted “${entry.misspelling}”.` });
      await load();
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  }

  return (
    <div className="stack">
      <form className="stack card" onSubmit={save} key={editing?.misspelling ?? "new"} aria-labelledby="entry-form-heading">
        <h2 id="entry-form-heading">{editing ? `Edit “${editing.misspelling}”` : "Add a word"}</h2>
        <label htmlFor="misspelling">Heard as</label>
        <input id="misspelling" name="misspelling" type="text" required maxLength={100} defaultValue={editing?.misspelling} />
        <label htmlFor="correct_spelling">Write as</label>
        <input id="correct_spelling" name="correct_spelling" type="text" required maxLength={200} defaultValue={editing?.correct_spelling} />
        <div className="row">
          <button type="submit">{editing ? "Save" : "Add"}</button>
          {editing && (
            <button type="button" className="secondary" onClick={() => setEditing(null)}>
              Cancel
            </button>
          )}
        </div>
      </form>
      <p aria-live="polite" className={message?.ok ? "ok" : "error"}>
        {message?.text}
      </p>
      <label htmlFor="dictionary-search">Search</label>
      <input id="dictionary-search" type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
      {entries === null ? (
        <p>Loading…</p>
      ) : shown.length === 0 ? (
        <p>{entries.length ? "No entry matches." : "Your dictionary is empty."}</p>
      ) : (
        <table>
          <caption className="visually-hidden">Dictionary entries</caption>
          <thead>
            <tr>
              <th scope="col">Heard as</th>
              <th scope="col">Write as</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((entry) => (
              <tr key={entry.misspelling}>
                <td>{entry.misspelling}</td>
                <td>{entry.correct_spelling}</td>
                <td className="row">
                  <button type="button" className="secondary" aria-label={`Edit ${entry.misspelling}`} onClick={() => setEditing(entry)}>
                    Edit
                  </button>
                  <button type="button" className="danger" aria-label={`Delete ${entry.misspelling}`} onClick={() => remove(entry)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
