"use client";

import { useRouter } from "next/navigation";
import { CloudUpload, Pin, PinOff, TriangleAlert } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { ApiRequestError, getRecording, getTranscription, type Recording, type Transcription } from "@/app/_lib/api.ts";
import { savePin } from "@/app/_lib/notes/label-queue.ts";
import { saveEdit } from "@/app/_lib/notes/edit-queue.ts";
import { onQueueChange, type QueuedUpload } from "@/app/_lib/local-db.ts";
import { listUploads, recordingIdOf } from "@/app/_lib/recording/upload-queue.ts";
import { FixWordButton, FixWordSheet, useFixWord } from "@/app/_components/note/text/fix-word-sheet.tsx";
import { NoteViewTabs, type NoteView } from "@/app/_components/note/text/note-view-tabs.tsx";
import { ReadingText } from "@/app/_components/note/text/reading-text.tsx";
import { applyFixToParts, type WordFix } from "@/app/_lib/notes/fix-word.ts";
import { applyWordFix } from "@/app/_lib/notes/apply-word-fix.ts";
import { duration, noteTitle, shownText, titleOf } from "@/app/_lib/notes/note-text.ts";
import { NoteInsights } from "@/app/_components/note/note-insights.tsx";
import { NotePlayer, type PlayerHandle } from "@/app/_components/note/note-player.tsx";
import { NoteActionBar } from "@/app/_components/note/note-actions.tsx";
import { RecordingHeader } from "@/app/_components/record/recording-header.tsx";
import { joinTimed, timedWordsOf, wordAt } from "@/app/_lib/notes/word-times.ts";
import { Button, Notice, RowLink, RowList, useToast } from "@/app/_ui/index.ts";
import styles from "../note/note.module.css";

const POLL_MS = 3000;
const LOCAL_LABEL = { pending: "waiting to upload", uploading: "uploading…", done: "uploaded", failed: "could not upload" } as const;

/**
 * A recording uploaded in parts, read as one note: each part's text as its own note shows it (your
 * edit, else the cleaned-up text, else the recognized one), joined in order, with one-tap
 * "Fix a word" across every part; the parts (each editable on its own page) and those still in
 * this device's upload queue are listed under it. What the server joins, any device sees.
 */
export function RecordingTranscript({ id, owner }: { id: string; owner: string }) {
  const [recording, setRecording] = useState<Recording | null>(null);
  const [notes, setNotes] = useState<Transcription[]>([]);
  const [local, setLocal] = useState<QueuedUpload[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [view, setView] = useState<NoteView>("text");
  const fix = useFixWord();
  const known = useRef(new Map<string, Transcription>());
  const player = useRef<PlayerHandle>(null);
  const [playing, setPlaying] = useState(false);
  const [spoken, setSpoken] = useState(-1);
  const router = useRouter();
  const toast = useToast();

  const load = useCallback(
    async (force = false) => {
      const queued = await listUploads(owner)
        .then((items) => items.filter((item) => recordingIdOf(item) === id))
        .catch(() => []);
      setLocal(queued);
      try {
        const joined = await getRecording(id);
        // Each part's note, read again only when it changed (its text, or its clean-up's state).
        const parts = await Promise.all(
          joined.parts.map(async (p) => {
            const note = known.current.get(p.transcription_id);
            if (!force && note && note.text === p.text && (note.optimization?.status ?? null) === p.optimization_status) return note;
            const fresh = await getTranscription(p.transcription_id);
            known.current.set(p.transcription_id, fresh);
            return fresh;
          }),
        );
        setRecording(joined);
        setNotes(parts);
        setError(null);
      } catch (err) {
        // 404 while every part is still on this device is not an error, just early.
        if (!(err instanceof ApiRequestError && err.status === 404 && queued.length)) setError((err as Error).message);
      }
      setLoaded(true);
    },
    [id, owner],
  );

  const received = new Set(recording?.parts.map((p) => p.part));
  const waiting = local.filter((item) => !received.has(item.part - 1)).sort((a, b) => a.part - b.part);
  const optimizing = recording?.optimization?.status === "pending" || recording?.optimization?.status === "running";
  const busy = waiting.some((item) => item.status !== "failed") || optimizing;

  useEffect(() => {
    // Loading on mount, and again whenever this device's queue moves.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
    return onQueueChange(() => void load());
  }, [load]);
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [busy, load]);

  /** The fix in the parts that have the word (or the tapped one), each saved as an edit of its own note. */
  async function fixed(request: WordFix) {
    const reverts: { id: string; text: string }[] = [];
    await applyWordFix(request, {
      apply: async () => {
        const { texts, count } = applyFixToParts(notes.map(shownText), request);
        let places = 0;
        for (const [i, note] of notes.entries()) {
          if (texts[i] === shownText(note)) continue;
          const outcome = await saveEdit(note.id, texts[i], note.updated_at);
          if (outcome.status === "saved" || outcome.status === "offline") reverts.push({ id: note.id, text: shownText(note) });
        }
        if (reverts.length) places = count;
        fix.close();
        await load(true);
        return places;
      },
      revert: async () => {
        for (const { id: noteId, text } of reverts) {
          const current = known.current.get(noteId);
          if (current) await saveEdit(noteId, text, current.updated_at, { force: true });
        }
        await load(true);
      },
      toast,
      about: () => [document.getElementById("transcript-text")],
    });
  }

  // The parts play one after another when every part received kept its audio.
  const audioParts = notes.length && notes.every((n) => n.audio) ? notes.map((n) => ({ url: n.audio!.url, duration: n.duration })) : [];
  const timed = useMemo(
    () =>
      joinTimed(
        notes.map((n, i) => ({ text: shownText(n), words: timedWordsOf(n), offset: notes.slice(0, i).reduce((sum, p) => sum + p.duration, 0) })),
        "\n\n",
      ),
    [notes],
  );

  if (error) {
    return (
      <Notice tone="danger" icon={<TriangleAlert size={18} aria-hidden="true" />} role="alert">
        {error}
      </Notice>
    );
  }
  if (!loaded) {
    return (
      <p aria-live="polite" className="muted">
        Loading the note…
      </p>
    );
  }
  const text = notes.map(shownText).filter(Boolean).join("\n\n");
  const title = titleOf(notes[0], text);
  const original = notes.map((n) => n.raw_text).filter(Boolean).join(" ");
  return (
    <article className={styles.note}>
      <RecordingHeader title={title} recording={recording} firstRecordedAt={notes[0]?.recorded_at} onTags={(tags) => setRecording((current) => current && { ...current, tags })} />
      {audioParts.length > 0 && (
        <NotePlayer ref={player} parts={audioParts} title={title} onTime={(t) => setSpoken(wordAt(timed, t))} onPlaying={setPlaying} />
      )}
      <NoteInsights
        notes={notes}
        onChanged={(saved) => {
          known.current.set(saved.id, saved);
          setNotes((current) => current.map((note) => (note.id === saved.id ? saved : note)));
        }}
        onError={toast}
      />
      {waiting.length > 0 && (
        <Notice tone="info" icon={<CloudUpload size={18} aria-hidden="true" />} role="status" data-testid="joined-waiting">
          {waiting.length} more {waiting.length === 1 ? "part is" : "parts are"} still on this phone; the text has the parts received so far.
        </Notice>
      )}
      {recording ? (
        <>
          <NoteViewTabs view={view} onChange={setView}>
            {view === "text" ? (
              <ReadingText
                text={text}
                onWord={fix.onWord}
                tokens={audioParts.length ? timed : undefined}
                spoken={spoken}
                onSeek={playing ? (t) => player.current?.seek(t, true) : undefined}
              />
            ) : (
              <p className={styles.original} data-testid="joined-text">
                {original || "No words were recognized."}
              </p>
            )}
          </NoteViewTabs>
          <NoteActionBar
            hint={view !== "text" ? "" : playing ? "Tap a word to play from there." : "Tap a word to fix its spelling."}
            more={
              recording?.parts[0]
                ? [
                    {
                      id: recording.pinned ? "unpin" : "pin",
                      label: recording.pinned ? "Unpin" : "Pin to the top of Notes",
                      icon: recording.pinned ? <PinOff size={20} aria-hidden="true" /> : <Pin size={20} aria-hidden="true" />,
                      onSelect: () => {
                        const pinned = !recording.pinned;
                        void savePin(recording.parts[0].transcription_id, pinned).then(({ shown, message }) => {
                          if (shown) setRecording((current) => current && { ...current, pinned });
                          toast(message);
                        });
                      },
                    },
                  ]
                : []
            }
          >
            {view === "text" && <FixWordButton picked={fix.picked} className={`${styles.compact} ${styles.grow}`} onClick={fix.show} />}
            <Button
              className={`${styles.compact} ${styles.primaryAction}`}
              onClick={() => router.push(`/content/new?recording=${encodeURIComponent(id)}`)}
              aria-label="Make posts from this note"
            >
              Make posts
            </Button>
          </NoteActionBar>
        </>
      ) : (
        <Notice tone="info" icon={<CloudUpload size={18} aria-hidden="true" />} role="status">
          Nothing of this recording has reached Voicedraft yet. It uploads by itself when this phone is online.
        </Notice>
      )}
      <h2 className={styles.partsTitle}>Parts</h2>
      <p className={styles.partsHint}>Open a part to edit its text.</p>
      <RowList label="Parts">
        {notes.map((note, i) => (
          <RowLink key={note.id} href={`/transcripts/${note.id}`} title={`Part ${(recording?.parts[i]?.part ?? i) + 1}`} meta={duration(note.duration)} excerpt={noteTitle(shownText(note))} />
        ))}
        {waiting.map((item) => (
          <li key={item.id} className={styles.localPart} data-testid="joined-local-part">
            <span>Part {item.part}</span>
            <span className="muted">On this phone, {LOCAL_LABEL[item.status]}</span>
          </li>
        ))}
      </RowList>
      <FixWordSheet open={fix.open} heard={fix.picked} at={fix.at} text={text} language={notes[0]?.language} onClose={fix.close} onFix={fixed} />
    </article>
  );
}
