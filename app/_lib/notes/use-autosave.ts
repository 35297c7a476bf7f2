"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { DictionarySuggestion, Transcription } from "@/app/_lib/api.ts";
import { discardEdit, onEditsChange, queuedEdit, saveEdit } from "@/app/_lib/notes/edit-queue.ts";

const AUTOSAVE_MS = 1200;

export type SaveState = "saved" | "dirty" | "saving" | "offline" | "conflict" | "error";
export type Suggestion = Pick<DictionarySuggestion, "misspelling" | "correct_spelling">;

/**
 * The text a person edits in a note, saved a moment after the last keystroke. An edit that could
 * not be sent waits in the device's queue; the app sends it once back online (EditSync), and this
 * follows. A conflict (the note changed on another device) is kept until the person chooses.
 */
export function useAutosave({
  id,
  note,
  onSaved,
  onError,
  reload,
}: {
  id: string;
  note: Transcription | null;
  onSaved: (saved: Transcription) => void;
  onError: (message: string) => void;
  reload: () => Promise<unknown>;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [save, setSave] = useState<SaveState>("saved");
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  // The latest note, for a save (an Undo) made after later saves.
  const latest = useRef(note);
  useEffect(() => {
    latest.current = note;
  }, [note]);

  /**
   * Saves `text` now. `force`: over a newer copy on the server (the person chose theirs).
   * `suggest: false` for a text the person did not type (a fix made with its own scope, an Undo,
   * the recognized text brought back): what it changed is no spelling to learn, and an Undo would
   * offer the reverse of the fix it takes back ("prudently" → "greatly").
   */
  const persist = useCallback(
    async (text: string, { force = false, suggest = true }: { force?: boolean; suggest?: boolean } = {}) => {
      const base = latest.current;
      if (!base) return;
      setSave("saving");
      const outcome = await saveEdit(id, text, base.updated_at, { force });
      if (outcome.status === "saved") {
        latest.current = outcome.transcription;
        onSaved(outcome.transcription);
        setDraft((current) => (current === text ? null : current));
        setSave("saved");
        if (!suggest) setSuggestions([]);
        else if (outcome.suggestions.length) setSuggestions(outcome.suggestions);
      } else if (outcome.status === "failed") {
        setSave("error");
        onError(outcome.message);
      } else {
        setSave(outcome.status);
      }
    },
    [id, onSaved, onError],
  );

  useEffect(() => {
    if (draft === null || save !== "dirty") return;
    const timer = setTimeout(() => void persist(draft), AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [draft, save, persist]);
  useEffect(() => {
    if (save !== "offline" && save !== "conflict") return;
    return onEditsChange(async () => {
      const waiting = await queuedEdit(id);
      if (waiting?.status === "conflict") return setSave("conflict");
      if (waiting) return;
      setDraft(null);
      setSave("saved");
      void reload();
    });
  }, [save, id, reload]);

  /** An edit found waiting in the queue when the note loads. */
  const restore = useCallback((waiting: { text: string; status: string }) => {
    setDraft((current) => current ?? waiting.text);
    setSave((current) => (waiting.status === "conflict" ? "conflict" : current === "saved" ? "offline" : current));
  }, []);
  const edit = useCallback((text: string) => {
    setDraft(text);
    setSave("dirty");
  }, []);
  const flush = useCallback(() => {
    if (draft !== null && save === "dirty") void persist(draft);
  }, [draft, save, persist]);
  const discard = useCallback(async () => {
    await discardEdit(id);
    setDraft(null);
    setSave("saved");
    void reload();
  }, [id, reload]);

  return { draft, save, suggestions, setSuggestions, persist, restore, edit, flush, discard };
}
