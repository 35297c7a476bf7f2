"use client";

import { useEffect, useRef, useState, type ChangeEvent } from "react";
import { queueRecording, recordingFileName, recoverInterruptedRecordings, startRecording, type Recording } from "@/lib/web/recorder.ts";
import { enqueueUploads } from "@/lib/web/upload-queue.ts";
import { prepareUpload } from "@/lib/web/prepare-upload.ts";
import type { PreprocessProgress } from "@/lib/web/preprocess.ts";

type Phase = "idle" | "starting" | "recording" | "paused" | "saving";

const STAGE = { loading: "Loading the audio tools", converting: "Converting", splitting: "Splitting" } as const;

const clock = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
};

const announceEnqueued = () => window.dispatchEvent(new Event("voicedraft:enqueued"));

export function Recorder({ owner }: { owner: string }) {
  const [phase, setPhase] = useState<Phase>("idle");
  const [elapsed, setElapsed] = useState(0);
  const [level, setLevel] = useState(0);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [preparing, setPreparing] = useState<PreprocessProgress | null>(null);
  const recording = useRef<Recording | null>(null);
  const clockState = useRef({ startedAt: 0, pausedTotal: 0, pausedAt: 0 });

  useEffect(() => {
    void recoverInterruptedRecordings(owner).then((n) => {
      if (!n) return;
      setMessage({ ok: true, text: `Recovered ${n} interrupted recording${n > 1 ? "s" : ""}; queued for upload.` });
      announceEnqueued();
    });
  }, [owner]);

  useEffect(() => {
    if (phase !== "recording" && phase !== "paused") return;
    let frame = 0;
    const tick = () => {
      const c = clockState.current;
      const now = phase === "paused" ? c.pausedAt : performance.now();
      setElapsed(now - c.startedAt - c.pausedTotal);
      setLevel(phase === "recording" ? (recording.current?.level() ?? 0) : 0);
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [phase]);

  async function start() {
    setMessage(null);
    setPhase("starting");
    try {
      recording.current = await startRecording(owner);
      clockState.current = { startedAt: performance.now(), pausedTotal: 0, pausedAt: 0 };
      setElapsed(0);
      setPhase("recording");
    } catch (err) {
      setPhase("idle");
      setMessage({ ok: false, text: `Could not use the microphone: ${(err as Error).message}` });
    }
  }

  function pause() {
    recording.current?.pause();
    clockState.current.pausedAt = performance.now();
    setPhase("paused");
  }

  function resume() {
    recording.current?.resume();
    clockState.current.pausedTotal += performance.now() - clockState.current.pausedAt;
    setPhase("recording");
  }

  async function stop() {
    const current = recording.current;
    if (!current) return;
    setPhase("saving");
    try {
      const blob = await current.stop();
      const parts = await prepareUpload(blob, recordingFileName(current.mimeType), setPreparing);
      await queueRecording(owner, current.id, parts);
      setMessage({ ok: true, text: `Saved ${clock(elapsed)} of audio; it uploads when the connection allows.` });
      announceEnqueued();
    } catch (err) {
      setMessage({ ok: false, text: `Could not save the recording: ${(err as Error).message}` });
    } finally {
      recording.current = null;
      setPreparing(null);
      setLevel(0);
      setPhase("idle");
    }
  }

  async function pickFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    setPhase("saving");
    try {
      const parts = await prepareUpload(file, file.name, setPreparing);
      await enqueueUploads(owner, parts);
      const split = parts.length > 1 ? ` in ${parts.length} parts` : "";
      setMessage({ ok: true, text: `Queued ${file.name}${split} for transcription.` });
      announceEnqueued();
    } finally {
      setPreparing(null);
      setPhase("idle");
    }
  }

  const active = phase === "recording" || phase === "paused";
  return (
    <section aria-labelledby="recorder-heading" className="stack card">
      <h2 id="recorder-heading" className="visually-hidden">
        Recorder
      </h2>
      <div className="timer" role="timer" aria-label="Recording time">
        {clock(elapsed)}
      </div>
      <div className="meter" role="meter" aria-label="Input level" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(level * 100)}>
        <span style={{ width: `${Math.round(level * 100)}%` }} />
      </div>
      <p className="status" aria-live="polite" data-testid="recorder-state">
        {{ idle: "Ready", starting: "Starting…", recording: "Recording", paused: "Paused", saving: "Saving…" }[phase]}
      </p>
      {preparing && (
        <p className="muted" role="status" data-testid="preprocess-progress">
          {STAGE[preparing.stage]}
          {preparing.seconds > 0 && ` — ${clock(preparing.seconds * 1000)} of audio done`}
        </p>
      )}
      <div className="row">
        {!active && (
          <button type="button" onClick={start} disabled={phase !== "idle"}>
            Start recording
          </button>
        )}
        {phase === "recording" && (
          <button type="button" className="secondary" onClick={pause}>
            Pause
          </button>
        )}
        {phase === "paused" && (
          <button type="button" className="secondary" onClick={resume}>
            Resume
          </button>
        )}
        {active && (
          <button type="button" onClick={stop}>
            Stop and save
          </button>
        )}
      </div>
      <div className="stack">
        <label htmlFor="audio-file">Or choose an audio file</label>
        <input id="audio-file" type="file" accept="audio/*,video/mp4,video/webm" onChange={pickFile} disabled={phase !== "idle"} />
      </div>
      <p aria-live="polite" className={message?.ok ? "ok" : "error"}>
        {message?.text}
      </p>
    </section>
  );
}
