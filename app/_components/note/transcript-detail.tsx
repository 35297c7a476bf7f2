"use client";

import { useRouter } from "next/navigation";
import { FileDown, Pin, PinOff, Undo2, Wand2 } from "lucide-react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { TriangleAlert } from "lucide-react";
import { postsOfNote } from "@/app/_lib/posts/content.ts";
import { hearTranscriptionAgain, undoHearingAgain, type Transcription } from "@/app/_lib/api.ts";
import { savePin } from "@/app/_lib/notes/label-queue.ts";
import { useNote } from "@/app/_lib/notes/use-note.ts";
import { useAutosave } from "@/app/_lib/notes/use-autosave.ts";
import { applyFix, type WordFix } from "@/app/_lib/notes/fix-word.ts";
import { applyWordFix } from "@/app/_lib/notes/apply-word-fix.ts";
import { noteTitle, originalText, shownText } from "@/app/_lib/notes/note-text.ts";
import { FixWordButton, FixWordSheet, useFixWord } from "@/app/_components/note/text/fix-word-sheet.tsx";
import type { NoteView } from "@/app/_components/note/text/note-view-tabs.tsx";
import { NoteTextPanel } from "@/app/_components/note/text/note-text-panel.tsx";
import { NoteHeader } from "@/app/_components/note/note-header.tsx";
import { NoteSaveNotices } from "@/app/_components/note/note-save-notices.tsx";
import { SpellingSuggestions } from "@/app/_components/note/text/spelling-suggestions.tsx";
import { CleanUpSummary } from "@/app/_components/note/text/clean-up-summary.tsx";
import { HEARD_AGAIN, TextImproving } from "@/app/_components/note/text/text-improving.tsx";
import { BasicRecognizerLine } from "@/app/_components/note/text/basic-recognizer.tsx";
import type { RecognizerQuality } from "@/lib/transcription/recognizers/recognizer-quality.ts";
import { NotePlayer, PreparingPlayer, type PlayerHandle } from "@/app/_components/note/note-player.tsx";
import { useNoteTools } from "@/app/_components/note/note-tools.tsx";
import { NoteActionBar } from "@/app/_components/note/note-actions.tsx";
import { NoteInsights } from "@/app/_components/note/note-insights.tsx";
import { NoteRewrites } from "@/app/_components/note/note-rewrites.tsx";
import { NoteFilesSheet } from "@/app/_components/note/note-files-sheet.tsx";
import { timedWordsOf, timeText, wordAt } from "@/app/_lib/notes/word-times.ts";
import { Button, Notice, useToast } from "@/app/_ui/index.ts";
import styles from "./note.module.css";

const SAVE_LABEL = { dirty: "Editing…", saving: "Saving…", offline: "", conflict: "", error: "" } as const;

/**
 * `initial`: the note as the server read it for this page (else it is fetched on mount);
 * `recognizer`: the speech recognizer this server has now (a note heard by the basic one says so).
 */
export function TranscriptDetail({ id, initial, recognizer }: { id: string; initial?: Transcription; recognizer?: RecognizerQuality }) {
  const restore = useRef<((waiting: { text: string; status: string }) => void) | null>(null);
  const { transcript, setTranscript, deviceCopyAt, error, setError, load } = useNote(id, initial, useCallback((w) => restore.current?.(w), []));
  const autosave = useAutosave({ id, note: transcript, onSaved: setTranscript, onError: setError, reload: load });
  const { draft, save, persist } = autosave;
  useEffect(() => {
    restore.current = autosave.restore;
  }, [autosave.restore]);
  const [view, setView] = useState<NoteView>("text");
  // The text is read (a tap on a word fixes it) until the user asks to edit it.
  const [editing, setEditing] = useState(false);
  const fix = useFixWord();
  const [rewriting, setRewriting] = useState(false);
  const [sharingFile, setSharingFile] = useState(false);
  // "Hear it again" with the accurate recognizer: being asked, then asked (the pass's end is told).
  const [hearing, setHearing] = useState<"idle" | "starting" | "asked">("idle");
  const player = useRef<PlayerHandle>(null);
  const [playing, setPlaying] = useState(false);
  const [spoken, setSpoken] = useState(-1);
  const router = useRouter();
  const toast = useToast();
  const offline = deviceCopyAt !== null;

  const shown = transcript ? (draft ?? shownText(transcript)) : "";
  const timed = useMemo(() => (transcript?.audio ? timeText(shown, timedWordsOf(transcript)) : []), [shown, transcript]);
  const title = transcript ? (transcript.title ?? (transcript.insights?.title || noteTitle(shown))) : "";
  const tools = useNoteTools({ note: transcript, title, text: shown, offline });
  // ?t=83.5 (a citation of Ask): the recording from there, once the player is on the page.
  const hasAudio = Boolean(transcript?.audio);
  useEffect(() => {
    const t = Number(new URLSearchParams(window.location.search).get("t"));
    if (hasAudio && t > 0) player.current?.seek(t, "try");
  }, [hasAudio]);

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

  async function fixed(request: WordFix) {
    const before = shown;
    await applyWordFix(request, {
      apply: async () => {
        const { text, count } = applyFix(before, request);
        if (count) await persist(text, { suggest: false });
        fix.close();
        return count;
      },
      revert: () => persist(before, { suggest: false }),
      toast,
      about: () => [document.getElementById("transcript-text"), document.getElementById("spelling-suggestions")],
    });
  }

  async function showRecognized() {
    const cleaned = shown;
    await persist(transcript!.text, { suggest: false });
    toast("The note shows the recognized text now.", { label: "Undo", onClick: () => void persist(cleaned, { suggest: false }).then(() => toast("Undone: the cleaned-up text is back.")) });
  }

  async function hearAgain() {
    setHearing("starting");
    try {
      setTranscript(await hearTranscriptionAgain(id));
      setHearing("asked");
    } catch (err) {
      toast((err as Error).message);
      setHearing("idle");
    }
  }

  async function undoHeard() {
    try {
      setTranscript(await undoHearingAgain(id));
      toast("Undone: the earlier text is back.", undefined, { topic: HEARD_AGAIN, about: () => [document.getElementById("transcript-text")] });
    } catch (err) {
      toast((err as Error).message);
    }
  }

  async function togglePin() {
    const pinned = !transcript!.pinned;
    // Only the pin: a text being edited keeps its own state.
    const { shown: set, message } = await savePin(id, pinned);
    if (set) setTranscript((current) => (current ? { ...current, pinned } : current));
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

  return (
    <article className={styles.note}>
      <NoteHeader note={transcript} fallbackTitle={transcript.insights?.title || noteTitle(shown)} offline={offline} onChanged={(update) => setTranscript((c) => (c ? update(c) : c))} />
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
      <NoteSaveNotices save={save} deviceCopyAt={deviceCopyAt} onKeepMine={() => void persist(shown, { force: true })} onUseOther={() => void autosave.discard()} />
      <NoteInsights notes={[transcript]} onChanged={setTranscript} onError={toast} disabled={offline} />
      <BasicRecognizerLine note={transcript} recognizer={recognizer} onHearAgain={offline ? null : () => void hearAgain()} busy={hearing === "starting"} />
      <TextImproving note={transcript} editing={editing || draft !== null} toast={toast} onUndo={offline ? null : () => void undoHeard()} asked={hearing === "asked"} />
      {draft === null && <CleanUpSummary note={transcript} onUseRecognized={showRecognized} disabled={offline} />}
      <NoteTextPanel
        view={view}
        onView={setView}
        editing={editing}
        text={shown}
        original={originalText(transcript)}
        onEdit={autosave.edit}
        onWord={offline ? null : fix.onWord}
        tokens={transcript.audio ? timed : undefined}
        spoken={spoken}
        player={player}
        playing={playing}
      />
      {save === "error" && error && (
        <Notice tone="danger" role="alert">
          {error}
        </Notice>
      )}
      <SpellingSuggestions suggestions={autosave.suggestions} onAccepted={(s) => autosave.setSuggestions((all) => all.filter((x) => x !== s))} toast={toast} />
      <NoteRewrites noteId={id} insights={transcript.insights} disabled={offline} open={rewriting} onOpen={setRewriting} />
      <NoteActionBar
        hint={view !== "text" || editing ? "" : playing ? "Tap a word to play from there." : "Tap a word to fix its spelling."}
        status={
          <span aria-live="polite" data-testid="save-state">
            {offline && save === "saved" ? "" : save === "saved" ? (draft === null ? "All changes saved" : "Saved") : SAVE_LABEL[save]}
          </span>
        }
        more={[
          ...tools.actions.filter((a) => a.id !== "delete"),
          transcript.pinned
            ? { id: "unpin", label: "Unpin", icon: <PinOff size={20} aria-hidden="true" />, onSelect: () => void togglePin() }
            : { id: "pin", label: "Pin to the top of Notes", icon: <Pin size={20} aria-hidden="true" />, onSelect: () => void togglePin() },
          { id: "share-file", label: "Share as a file…", icon: <FileDown size={20} aria-hidden="true" />, onSelect: () => setSharingFile(true) },
          { id: "rewrite-note", label: "Rewrite as…", icon: <Wand2 size={20} aria-hidden="true" />, onSelect: () => setRewriting(true), disabled: offline },
          ...(transcript.text_improved_undoable && draft === null
            ? [{ id: "undo-heard-again", label: "Put back the earlier text", icon: <Undo2 size={20} aria-hidden="true" />, onSelect: () => void undoHeard(), disabled: offline }]
            : []),
          ...tools.actions.filter((a) => a.id === "delete"),
        ]}
      >
        {view === "text" && (
          <Button
            variant="secondary"
            className={styles.compact}
            onClick={() => {
              if (editing) autosave.flush();
              setEditing(!editing);
              fix.setPicked("");
            }}
          >
            {editing ? "Done" : "Edit"}
          </Button>
        )}
        {view === "text" && <FixWordButton picked={fix.picked} className={`${styles.compact} ${styles.grow}`} onClick={fix.show} disabled={offline} />}
        {/* Not while editing: it waits for the text to be saved, and its room lets "Fix a word" be whole at 360 px. */}
        {!editing && (
          <Button className={`${styles.compact} ${styles.primaryAction}`} onClick={makePosts} disabled={draft !== null || offline} aria-label="Make posts from this note">
            Make posts
          </Button>
        )}
      </NoteActionBar>
      {tools.confirm}
      <NoteFilesSheet
        open={sharingFile}
        onClose={() => setSharingFile(false)}
        note={{
          title,
          text: shown,
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
      <FixWordSheet open={fix.open} heard={fix.picked} at={fix.at} text={shown} language={transcript.language} onClose={fix.close} onFix={fixed} />
    </article>
  );
}
