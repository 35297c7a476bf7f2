"use client";

import { useRouter } from "next/navigation";
import { CloudOff, FileDown, Pin, PinOff, TriangleAlert, Wand2 } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { postsOfNote } from "@/app/_lib/posts/content.ts";
import { addDictionaryEntry, ApiRequestError, deleteDictionaryEntry, readTranscription, savedRead, saveRead, transcriptionPath, type DictionarySuggestion, type Transcription } from "@/app/_lib/api.ts";
import { discardEdit, onEditsChange, queuedEdit, saveEdit } from "@/app/_lib/notes/edit-queue.ts";
import { queuedLabels, savePin, withQueuedLabels } from "@/app/_lib/notes/label-queue.ts";
import { OptimizationStatus } from "@/app/_components/note/optimization-status.tsx";
import { duration, noteTitle, originalText, pickWord, replaceWord, shownText } from "@/app/_components/note/note-text.ts";
import { FixWordButton, FixWordSheet, NoteViewTabs, ReadingText, useFixWord, type FixScope, type NoteView } from "@/app/_components/note/note-reading.tsx";
import { NotePlayer, PreparingPlayer, type PlayerHandle } from "@/app/_components/note/note-player.tsx";
import { NoteTitle, useNoteTools } from "@/app/_components/note/note-tools.tsx";
import { NoteActionBar } from "@/app/_components/note/note-actions.tsx";
import { NoteInsights } from "@/app/_components/note/note-insights.tsx";
import { NoteRewrites } from "@/app/_components/note/note-rewrites.tsx";
import { NoteFilesSheet } from "@/app/_components/note/note-files-sheet.tsx";
import { NoteTags } from "@/app/_components/note/note-tags.tsx";
import { timedWordsOf, timeText, wordAt } from "@/app/_lib/notes/word-times.ts";
import { Button, LocalTime, Notice, useToast } from "@/app/_ui/index.ts";
import styles from "./note.module.css";

const POLL_MS = 2000;
const AUTOSAVE_MS = 1200;

type Suggestion = Pick<DictionarySuggestion, "misspelling" | "correct_spelling">;
type SaveState = "saved" | "dirty" | "saving" | "offline" | "conflict" | "error";

/** `initial`: the note as the server read it for this page (else it is fetched on mount). */
export function TranscriptDetail({ id, initial }: { id: string; initial?: Transcription }) {
  const [transcript, setTranscript] = useState<Transcription | null>(initial ?? null);
  const [draft, setDraft] = useState<string | null>(null);
  const [save, setSave] = useState<SaveState>("saved");
  // When the note shown is this phone's saved copy (offline): when it was saved.
  const [deviceCopyAt, setDeviceCopyAt] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [view, setView] = useState<NoteView>("text");
  // The text is read (a tap on a word fixes it) until the user asks to edit it.
  const [editing, setEditing] = useState(false);
  const fix = useFixWord();
  const [rewriting, setRewriting] = useState(false);
  const [sharingFile, setSharingFile] = useState(false);
  const { setPicked } = fix;
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const player = useRef<PlayerHandle>(null);
  const [playing, setPlaying] = useState(false);
  const [spoken, setSpoken] = useState(-1);
  const router = useRouter();
  const toast = useToast();
  const url = transcriptionPath(id);
  const seeded = useRef(initial);

  const load = useCallback(async () => {
    try {
      // The server's copy on the first load (kept as this device's saved copy, as a fetch would be).
      const first = seeded.current;
      seeded.current = undefined;
      const { data: read, fromDevice, savedAt } = first ? await seededRead(url, first) : await readTranscription(id);
      // Tags or a pin set on this phone and not yet sent show as set.
      const t = withQueuedLabels(read, await queuedLabels(id).catch(() => undefined));
      setTranscript(t);
      setDeviceCopyAt(fromDevice ? (savedAt ?? Date.now()) : null);
      setError(null);
      // An edit not yet on the server (made offline, or refused as a conflict) is the text to show.
      const waiting = await queuedEdit(id).catch(() => undefined);
      if (waiting) {
        setDraft((current) => current ?? waiting.text);
        setSave((current) => (waiting.status === "conflict" ? "conflict" : current === "saved" ? "offline" : current));
      }
      return fromDevice ? null : t; // a saved copy is not polled
    } catch (err) {
      setError(err instanceof ApiRequestError && err.status === 0 ? "No connection, and this note is not saved on this phone yet." : (err as Error).message);
      return null;
    }
  }, [url, id]);

  // Live clean-up status, and the recording kept just after Stop: poll while either is on its way.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const tick = async () => {
      const t = await load();
      const status = t?.optimization?.status;
      if (!stopped && (status === "pending" || status === "running" || t?.audio_pending)) timer = setTimeout(tick, POLL_MS);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [load]);

  const persist = useCallback(
    async (text: string, base: Transcription | null, force = false) => {
      if (!base) return;
      setSave("saving");
      const outcome = await saveEdit(id, text, base.updated_at, { force });
      if (outcome.status === "saved") {
        setTranscript(outcome.transcription);
        setDraft((current) => (current === text ? null : current));
        setSave("saved");
        if (outcome.suggestions.length) setSuggestions(outcome.suggestions);
      } else if (outcome.status === "failed") {
        setSave("error");
        setError(outcome.message);
      } else {
        setSave(outcome.status);
      }
    },
    [id],
  );

  // Autosave a moment after the last keystroke. An edit that could not be sent waits in the
  // device's queue; the app sends it once back online (EditSync), and this page follows.
  useEffect(() => {
    if (draft === null || save !== "dirty") return;
    const timer = setTimeout(() => void persist(draft, transcript), AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [draft, save, transcript, persist]);
  useEffect(() => {
    if (save !== "offline" && save !== "conflict") return;
    return onEditsChange(async () => {
      const waiting = await queuedEdit(id);
      if (waiting?.status === "conflict") return setSave("conflict");
      if (waiting) return;
      setDraft(null);
      setSave("saved");
      void load();
    });
  }, [save, id, load]);

  // Editing: the word at the caret (or the selected words) is offered for fixing.
  const capture = useCallback(() => {
    const el = textRef.current;
    if (el) setPicked(pickWord(el.value, el.selectionStart, el.selectionEnd));
  }, [setPicked]);
  // React's onSelect misses a selection made by script or by some touch keyboards: listen natively too.
  const attachText = useCallback(
    (el: HTMLTextAreaElement | null) => {
      textRef.current = el;
      el?.addEventListener("select", capture);
    },
    [capture],
  );

  function finishEditing() {
    if (draft !== null && save === "dirty") void persist(draft, transcript);
    setEditing(false);
    setPicked("");
  }

  // The latest note, for an Undo pressed after later saves.
  const latest = useRef(transcript);
  useEffect(() => {
    latest.current = transcript;
  }, [transcript]);

  async function fixed(misspelling: string, correct: string, scope: FixScope) {
    if (!transcript) return;
    const before = draft ?? shownText(transcript);
    const { text, count } = replaceWord(before, misspelling, correct);
    if (count) await persist(text, transcript);
    fix.close();
    const here = count ? `fixed ${count} ${count === 1 ? "place" : "places"} here` : "not found in this note";
    if (scope === "note") return toast(count ? `Fixed ${count} ${count === 1 ? "place" : "places"} in this note.` : `“${misspelling}” is not in this note.`);
    toast(`“${misspelling}” will be written “${correct}” from now on; ${here}.`, {
      label: "Undo",
      onClick: async () => {
        try {
          await deleteDictionaryEntry(misspelling);
          if (count) await persist(before, latest.current);
          toast(`Undone: “${misspelling}” is no longer in your dictionary.`);
        } catch (err) {
          toast(`Not undone: ${(err as Error).message}`);
        }
      },
    });
  }

  async function accept(s: Suggestion) {
    try {
      await addDictionaryEntry(s);
      setSuggestions((all) => all.filter((x) => x !== s));
      toast(`“${s.misspelling}” will be written “${s.correct_spelling}” from now on.`);
    } catch (err) {
      toast(`Not saved: ${(err as Error).message}`);
    }
  }

  async function togglePin() {
    if (!transcript) return;
    const pinned = !transcript.pinned;
    // Only the pin: a text being edited keeps its own state.
    const { shown, message } = await savePin(id, pinned);
    if (shown) setTranscript((current) => (current ? { ...current, pinned } : current));
    toast(message);
  }

  async function makePosts() {
    try {
      // The posts already made from this note, else the page of posts not written yet (nothing stored until then).
      const [existing] = await postsOfNote(id, 1);
      router.push(existing ? `/content/${existing.id}` : `/content/new?note=${encodeURIComponent(id)}`);
    } catch (err) {
      toast((err as Error).message);
    }
  }

  const shown = transcript ? (draft ?? shownText(transcript)) : "";
  const timed = useMemo(() => (transcript?.audio ? timeText(shown, timedWordsOf(transcript)) : []), [shown, transcript]);
  const title = transcript ? (transcript.title ?? (transcript.insights?.title || noteTitle(shown))) : "";
  const tools = useNoteTools({ note: transcript, title, text: shown, offline: deviceCopyAt !== null });

  if (!transcript) {
    return error ? (
      <Notice tone="danger" icon={<TriangleAlert size={18} aria-hidden="true" />} role="alert">
        {error}
      </Notice>
    ) : (
      <p aria-live="polite" className="muted">
        Loading the note…
      </p>
    );
  }
  const text = shown;
  const original = originalText(transcript);
  return (
    <article className={styles.note}>
      <header className={styles.header}>
        <NoteTitle note={transcript} fallback={transcript.insights?.title || noteTitle(text)} onRenamed={setTranscript} disabled={deviceCopyAt !== null} />
        <p className={styles.meta}>
          <LocalTime iso={transcript.recorded_at} />
          <span aria-hidden="true">·</span>
          <span>{duration(transcript.duration)}</span>
          {transcript.pinned && (
            <span className={styles.pinned} data-testid="pinned">
              <Pin size={14} aria-hidden="true" /> Pinned
            </span>
          )}
          <OptimizationStatus optimization={transcript.optimization} />
        </p>
        <NoteTags
          noteId={id}
          tags={transcript.tags}
          onSaved={(saved) => setTranscript((current) => (current ? { ...current, tags: saved.tags } : saved))}
        />
      </header>
      {transcript.audio ? (
        <NotePlayer
          ref={player}
          parts={[{ url: transcript.audio.url, duration: transcript.duration }]}
          title={title}
          onTime={(t) => setSpoken(wordAt(timed, t))}
          onPlaying={setPlaying}
        />
      ) : (
        transcript.audio_pending && <PreparingPlayer />
      )}
      {deviceCopyAt !== null && save !== "offline" && (
        <Notice tone="warning" icon={<CloudOff size={18} aria-hidden="true" />} data-testid="device-copy">
          Offline copy from <LocalTime iso={new Date(deviceCopyAt).toISOString()} />. Fixing words and making posts need a connection.
        </Notice>
      )}
      {/* Above the text: the first thing seen on coming back to the note. */}
      {save === "offline" && (
        <Notice tone="warning" icon={<CloudOff size={18} aria-hidden="true" />}>
          Saved on this phone: no connection. Your text is sent when you are back online.
        </Notice>
      )}
      {save === "conflict" && (
        <Notice tone="warning" icon={<TriangleAlert size={18} aria-hidden="true" />} role="alert">
          <p>This note was changed on another device while you edited it.</p>
          <div className="row">
            <Button variant="secondary" onClick={() => void persist(text, transcript, true)}>
              Keep my version
            </Button>
            <Button
              variant="ghost"
              onClick={async () => {
                await discardEdit(id);
                setDraft(null);
                setSave("saved");
                void load();
              }}
            >
              Use the other version
            </Button>
          </div>
        </Notice>
      )}
      <NoteInsights notes={[transcript]} onChanged={setTranscript} onError={toast} disabled={deviceCopyAt !== null} />
      <NoteViewTabs view={view} onChange={setView}>
        {view === "text" && editing ? (
          <>
            <label htmlFor="transcript-text" className="visually-hidden">
              Text of the note
            </label>
            <textarea
              id="transcript-text"
              ref={attachText}
              className={styles.text}
              value={text}
              spellCheck
              autoFocus
              onChange={(e) => {
                setDraft(e.target.value);
                setSave("dirty");
              }}
              onSelect={capture}
              onClick={capture}
              onKeyUp={capture}
              data-testid="note-editor"
            />
          </>
        ) : view === "text" ? (
          <ReadingText
            text={text}
            onWord={deviceCopyAt === null ? fix.onWord : () => undefined}
            tokens={transcript.audio ? timed : undefined}
            spoken={spoken}
            onSeek={playing ? (t) => player.current?.seek(t, true) : undefined}
          />
        ) : (
          <p className={styles.original} data-testid="original-text">
            {original}
          </p>
        )}
      </NoteViewTabs>
      {save === "error" && error && (
        <Notice tone="danger" role="alert">
          {error}
        </Notice>
      )}
      {suggestions.length > 0 && (
        <section aria-label="Spelling suggestions" className={styles.suggestions}>
          <p className={styles.suggestionsTitle}>Always spell these your way?</p>
          {suggestions.map((s) => (
            <Button key={`${s.misspelling}→${s.correct_spelling}`} variant="secondary" onClick={() => void accept(s)}>
              “{s.misspelling}” → “{s.correct_spelling}”
            </Button>
          ))}
        </section>
      )}
      <NoteRewrites noteId={id} insights={transcript.insights} disabled={deviceCopyAt !== null} open={rewriting} onOpen={setRewriting} />
      <NoteActionBar
        hint={view !== "text" || editing ? "" : playing ? "Tap a word to play from there." : "Tap a word to fix its spelling."}
        status={
          <span aria-live="polite" data-testid="save-state">
            {deviceCopyAt !== null && save === "saved"
              ? ""
              : { saved: draft === null ? "All changes saved" : "Saved", dirty: "Editing…", saving: "Saving…", offline: "", conflict: "", error: "" }[save]}
          </span>
        }
        more={[
          ...tools.actions.filter((a) => a.id !== "delete"),
          transcript.pinned
            ? { id: "unpin", label: "Unpin", icon: <PinOff size={20} aria-hidden="true" />, onSelect: () => void togglePin() }
            : { id: "pin", label: "Pin to the top of Notes", icon: <Pin size={20} aria-hidden="true" />, onSelect: () => void togglePin() },
          { id: "share-file", label: "Share as a file…", icon: <FileDown size={20} aria-hidden="true" />, onSelect: () => setSharingFile(true) },
          { id: "rewrite-note", label: "Rewrite as…", icon: <Wand2 size={20} aria-hidden="true" />, onSelect: () => setRewriting(true), disabled: deviceCopyAt !== null },
          ...tools.actions.filter((a) => a.id === "delete"),
        ]}
      >
        {view === "text" &&
          (editing ? (
            <Button variant="secondary" className={styles.compact} onClick={finishEditing}>
              Done
            </Button>
          ) : (
            <Button
              variant="secondary"
              className={styles.compact}
              onClick={() => {
                setEditing(true);
                setPicked("");
              }}
            >
              Edit
            </Button>
          ))}
        {view === "text" && <FixWordButton picked={fix.picked} className={`${styles.compact} ${styles.grow}`} onClick={fix.show} disabled={deviceCopyAt !== null} />}
        <Button
          className={`${styles.compact} ${styles.primaryAction}`}
          onClick={makePosts}
          disabled={draft !== null || deviceCopyAt !== null}
          aria-label="Make posts from this note"
        >
          Make posts
        </Button>
      </NoteActionBar>
      {tools.confirm}
      <NoteFilesSheet
        open={sharingFile}
        onClose={() => setSharingFile(false)}
        note={{
          title,
          text,
          tags: transcript.tags,
          recordedAt: transcript.recorded_at,
          duration: transcript.duration,
          summary: transcript.insights?.summary,
          keyPoints: transcript.insights?.key_points,
          actionItems: transcript.insights?.action_items,
        }}
        tokens={timed}
        audioUrl={transcript.audio?.url ?? null}
      />
      <FixWordSheet open={fix.open} heard={fix.picked} language={transcript.language} onClose={fix.close} onFixed={fixed} onError={toast} />
    </article>
  );
}


/**
 * The note the server rendered into the page, unless this phone holds a newer copy: offline, the
 * page itself may be the service worker's old copy, while the note was fixed since (the saved
 * copy is updated on every read and edit). A rendered copy seen offline counts as a device copy.
 */
async function seededRead(url: string, first: Transcription): Promise<{ data: Transcription; fromDevice: boolean; savedAt?: number }> {
  const saved = await savedRead(url);
  const kept = saved?.body as Transcription | undefined;
  if (kept && saved && kept.updated_at > first.updated_at) return { data: kept, fromDevice: true, savedAt: saved.savedAt };
  if (typeof navigator !== "undefined" && navigator.onLine === false) return { data: first, fromDevice: true, savedAt: saved?.savedAt };
  void saveRead(url, first);
  return { data: first, fromDevice: false };
}
