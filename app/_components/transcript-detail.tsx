"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { createMaster } from "@/lib/web/content.ts";
import { api, ApiRequestError, type Transcription } from "@/lib/web/api.ts";
import { OptimizationStatus } from "@/app/_components/optimization-status.tsx";

const POLL_MS = 2000;

export function TranscriptDetail({ id }: { id: string }) {
  const [transcript, setTranscript] = useState<Transcription | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [selection, setSelection] = useState("");
  const textRef = useRef<HTMLTextAreaElement>(null);
  const router = useRouter();

  async function createContent() {
    try {
      const master = await createMaster({ source_transcription_id: id });
      router.push(`/content/${master.id}`);
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  }

  const load = useCallback(async () => {
    try {
      const t = await api<Transcription>(`/api/v1/transcriptions/${encodeURIComponent(id)}`);
      setTranscript(t);
      return t;
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
      return null;
    }
  }, [id]);

  // Live optimization status: poll while the background optimization is pending or running.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const tick = async () => {
      const t = await load();
      const status = t?.optimization?.status;
      if (!stopped && (status === "pending" || status === "running")) timer = setTimeout(tick, POLL_MS);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [load]);

  async function save() {
    if (!transcript || draft === null) return;
    try {
      const saved = await api<Transcription>(`/api/v1/transcriptions/${encodeURIComponent(id)}`, {
        method: "PATCH",
        json: { text: draft, updated_at: transcript.updated_at },
      });
      setTranscript(saved);
      setDraft(null);
      setMessage({ ok: true, text: "Saved." });
    } catch (err) {
      const conflict = err instanceof ApiRequestError && err.status === 409;
      setMessage({
        ok: false,
        text: conflict ? "This transcript was changed elsewhere. Reload it, then apply your edit again." : (err as Error).message,
      });
    }
  }

  async function addToDictionary(form: FormData) {
    const entry = { misspelling: String(form.get("misspelling") ?? ""), correct_spelling: String(form.get("correct_spelling") ?? "") };
    try {
      await api("/api/v1/dictionary/add", { method: "POST", json: entry });
      setMessage({ ok: true, text: `“${entry.misspelling}” will be written “${entry.correct_spelling}” in your next transcripts.` });
      setSelection("");
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  }

  function captureSelection() {
    const el = textRef.current;
    const picked = el ? el.value.slice(el.selectionStart, el.selectionEnd).trim() : window.getSelection()?.toString().trim();
    if (picked) setSelection(picked.slice(0, 100));
  }

  if (!transcript) return <p aria-live="polite">{message?.text ?? "Loading…"}</p>;
  const optimized = transcript.optimization?.status === "completed" ? transcript.optimization.text : null;
  return (
    <div className="stack">
      <h1>Transcript</h1>
      <p className="muted">
        {new Date(transcript.created_at).toLocaleString()} · {Math.round(transcript.duration)} s · {transcript.engine}{" "}
        <OptimizationStatus optimization={transcript.optimization} />
      </p>
      <label htmlFor="transcript-text">Text (select a word to add it to your dictionary)</label>
      <textarea
        id="transcript-text"
        ref={textRef}
        value={draft ?? transcript.text}
        onChange={(e) => setDraft(e.target.value)}
        onSelect={captureSelection}
      />
      <div className="row">
        <button type="button" onClick={save} disabled={draft === null}>
          Save text
        </button>
        <button
          type="button"
          className="secondary"
          // Keep the textarea's selection: a tap on the button must not clear it first.
          onMouseDown={(e) => e.preventDefault()}
          onClick={captureSelection}
        >
          Add selected word to dictionary
        </button>
        {draft !== null && (
          <button type="button" className="secondary" onClick={() => setDraft(null)}>
            Discard edit
          </button>
        )}
      </div>
      <button type="button" className="secondary" onClick={createContent} disabled={draft !== null}>
        Create content from this transcript
      </button>
      <p aria-live="polite" className={message?.ok ? "ok" : "error"}>
        {message?.text}
      </p>
      {selection && (
        <form className="stack card" action={addToDictionary} key={selection} aria-label="Add to dictionary">
          <label htmlFor="dict-misspelling">Heard as</label>
          <input id="dict-misspelling" name="misspelling" type="text" defaultValue={selection} required />
          <label htmlFor="dict-correct">Write as</label>
          <input id="dict-correct" name="correct_spelling" type="text" required />
          <button type="submit">Add to dictionary</button>
        </form>
      )}
      {optimized && (
        <section aria-labelledby="optimized-heading">
          <h2 id="optimized-heading">Optimized version</h2>
          <p className="transcript-text" data-testid="optimized-text">
            {optimized}
          </p>
        </section>
      )}
    </div>
  );
}
