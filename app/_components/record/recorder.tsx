"use client";

import { useRouter } from "next/navigation";
import { Mic, Pause, Play, Square, Upload } from "lucide-react";
import { useEffect, useRef, useState, useSyncExternalStore, type ChangeEvent } from "react";
import {
  queueLiveRecording,
  startRecording,
  type Interruption,
  type Recording,
} from "@/app/_lib/recording/recorder.ts";
import { enqueueUploads } from "@/app/_lib/recording/upload-queue.ts";
import type { QueuedUpload } from "@/app/_lib/local-db.ts";
import type { LiveCaptions } from "@/app/_lib/recording/live-recording.ts";
import { prepareUpload } from "@/app/_lib/recording/prepare-upload.ts";
import { warmUpAudioTools } from "@/app/_lib/recording/preprocess.ts";
import { whenIdle } from "@/app/_lib/idle.ts";
import { keepRecordingsOnPhone, minutesOfSpaceLeft } from "@/app/_lib/recording/storage.ts";
import { clearProgress, onProgress, progressStage, reportStage, setCardShown, trackUpload } from "@/app/_lib/recording/recording-progress.ts";
import { Button, Notice } from "@/app/_ui/index.ts";
import { INSECURE_ADDRESS, microphoneHelp } from "@/app/_components/record/mic-help.ts";
import { SECURE_ADDRESS_HELP, useSecureContext } from "@/app/_lib/secure-context.ts";
import { ProgressCard } from "@/app/_components/record/progress-card.tsx";
import { LiveCaptionsView } from "@/app/_components/record/live-captions.tsx";
import { useIncomingAudio } from "@/app/_lib/recording/use-incoming-audio.ts";
import { useRecordingClock } from "@/app/_lib/recording/use-recording-clock.ts";
import styles from "./recorder.module.css";

type Phase = "idle" | "starting" | "recording" | "paused" | "saving";

const clockText = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
};

const announceEnqueued = () => window.dispatchEvent(new Event("voicedraft:enqueued"));
const seconds = (n: number) => (n < 90 ? `${n} s` : `${Math.round(n / 60)} min`);
const interruptionMessage = (reason: Interruption) =>
  reason === "ended"
    ? "The recording stopped because the microphone was taken away (a call, another app, or its permission). Everything up to then is saved."
    : "The recording stopped because the microphone went silent (a call or another app took it). Everything up to then is saved.";
const AUDIO_TOOLS_AFTER_MS = 5000;
const STATE = { idle: "Ready", starting: "Starting…", recording: "Recording", paused: "Paused", saving: "Saving…" } as const;

export function Recorder({ owner }: { owner: string }) {
  const [phase, setPhase] = useState<Phase>("idle");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  // After an interruption: the page stays (the card links the note) and offers to record more.
  const [interrupted, setInterrupted] = useState(false);
  // What the server heard so far while recording.
  const [captions, setCaptions] = useState<LiveCaptions | null>(null);
  // Why the server does not caption this recording (it is recorded and sent all the same).
  const [captionsOff, setCaptionsOff] = useState<string | null>(null);
  const stage = useSyncExternalStore(onProgress, progressStage, () => null);
  const recording = useRef<Recording | null>(null);
  const card = useRef<HTMLDivElement>(null);
  const { elapsed, level, meter, ...clock } = useRecordingClock(phase, () => recording.current?.level() ?? 0);
  const router = useRouter();
  const canRecord = useSecureContext();
  // What reaches this page from outside it: a shared file, an interrupted recording, "Open with".
  useIncomingAudio(owner, { onMessage: setMessage, onFile: (file) => queueFile(file), onQueued: announceEnqueued });

  // While this page shows the card, a finished note opens by itself; elsewhere a toast offers it.
  useEffect(() => {
    setCardShown(true);
    return () => setCardShown(false);
  }, []);
  useEffect(() => {
    // After an interruption the page stays, offering "Continue recording"; the card links the note.
    if (stage?.kind === "done" && !interrupted) {
      clearProgress();
      router.push(stage.href);
    } else if (stage) card.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [stage, router, interrupted]);

  // A picked audio file is converted and split in the browser (ffmpeg.wasm): the tools load while
  // the person is on this page, not after they choose the file. Not with the page, though: ~30 MB
  // to fetch and compile would compete with its first paint and with a recording started at once.
  // They load a few seconds after the page settles, or as soon as the person reaches for a file.
  useEffect(() => whenIdle(warmUpAudioTools, { afterMs: AUDIO_TOOLS_AFTER_MS }), []);

  async function start() {
    setMessage(null);
    setInterrupted(false);
    setCaptions(null);
    setCaptionsOff(null);
    clearProgress();
    setPhase("starting");
    try {
      const spaceLeft = await minutesOfSpaceLeft();
      recording.current = await startRecording(owner, {
        onCaptions: setCaptions,
        onCaptionsOff: setCaptionsOff,
        onInterrupted: (reason) => void stop(interruptionMessage(reason)),
        onReturn: (lost, hidden) =>
          lost > 0 &&
          setMessage({ ok: false, text: `The phone paused the recording while the screen was off: about ${seconds(lost)} of the last ${seconds(hidden)} is missing. Keep the screen on for long notes.` }),
      });
      clock.begin();
      setPhase("recording");
      if (spaceLeft !== null && spaceLeft < 15) {
        setMessage({ ok: false, text: `This phone has room for only about ${spaceLeft} more minutes of recording. Free some space, or keep this note short.` });
      }
    } catch (err) {
      setPhase("idle");
      setMessage({ ok: false, text: microphoneHelp(err) });
    }
  }

  function pause() {
    recording.current?.pause();
    clock.pause();
    setPhase("paused");
  }

  function resume() {
    recording.current?.resume();
    clock.resume();
    setPhase("recording");
  }

  /** Stops and saves; `why` (an interruption) is said once the recording is safe. */
  async function stop(why?: string) {
    const current = recording.current;
    if (!current) return;
    recording.current = null; // one stop, even if Stop and an interruption come together
    // Marks for bench:app-record, which reads where the seconds after Stop go.
    performance.mark("voicedraft:stop");
    setPhase("saving");
    reportStage({ kind: "saving" });
    let queued: QueuedUpload[] = [];
    try {
      const { blob } = await current.stop();
      performance.mark("voicedraft:saved");
      // Most of it is text already: only the last seconds are left to recognize.
      queued = await queueLiveRecording(owner, current, blob);
      performance.mark("voicedraft:last-part-queued");
      trackUpload(owner, queued);
      announceEnqueued();
      if (why) {
        setMessage({ ok: false, text: why });
        setInterrupted(true);
      }
      // The first recording kept on this phone: ask the browser not to clear it under storage pressure.
      void keepRecordingsOnPhone();
    } catch (err) {
      reportStage({ kind: "failed", message: `Could not save the recording: ${(err as Error).message}` });
    } finally {
      clock.silence();
      setPhase("idle");
    }
  }

  async function pickFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file) await queueFile(file);
  }

  async function queueFile(file: File) {
    setMessage(null);
    setPhase("saving");
    reportStage({ kind: "saving" });
    try {
      const parts = await prepareUpload(file, file.name, (p) => reportStage({ kind: "preparing", step: p.stage, seconds: p.seconds }));
      trackUpload(owner, await enqueueUploads(owner, parts));
      announceEnqueued();
    } catch (err) {
      reportStage({ kind: "failed", message: `Could not read ${file.name}: ${(err as Error).message}` });
    } finally {
      setPhase("idle");
    }
  }

  const active = phase === "recording" || phase === "paused";
  // A recording on its way to text comes first: its card on top, a small button for the next one
  // below it, not the big Record button and "Ready" that invite a second recording by accident.
  const processing = phase === "idle" && stage !== null && stage.kind !== "done" && stage.kind !== "failed";
  // (Moved up by CSS `order`: the card stays one element from saving to done.)
  return (
    <section aria-labelledby="recorder-heading" className={styles.recorder} data-processing={processing || undefined}>
      <h2 id="recorder-heading" className="visually-hidden">
        Recorder
      </h2>
      <div className={processing || !canRecord ? "visually-hidden" : styles.timer} role="timer" aria-label="Recording time">
        {clockText(elapsed)}
      </div>
      {!processing && canRecord && (
        <div className={styles.meter} role="meter" aria-label="Input level" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(level * 100)}>
          <span ref={meter} />
        </div>
      )}
      <p className={processing || !canRecord ? "visually-hidden" : styles.state} aria-live="polite" data-testid="recorder-state" data-phase={phase}>
        {STATE[phase]}
      </p>
      {active && <LiveCaptionsView captions={captions} off={captionsOff} />}
      <div className={styles.controls} data-processing={processing || undefined}>
        {processing && (
          <Button variant="secondary" onClick={() => void start()}>
            <Mic size={18} aria-hidden="true" /> Start recording
          </Button>
        )}
        {canRecord && !active && phase !== "saving" && !processing && (
          <button type="button" className={styles.bigButton} onClick={() => void start()} disabled={phase !== "idle"}>
            <Mic size={40} aria-hidden="true" />
            <span className="visually-hidden">Start recording</span>
          </button>
        )}
        {phase === "recording" && (
          <Button variant="secondary" size="large" onClick={pause}>
            <Pause size={20} aria-hidden="true" /> Pause
          </Button>
        )}
        {phase === "paused" && (
          <Button variant="secondary" size="large" onClick={resume}>
            <Play size={20} aria-hidden="true" /> Resume
          </Button>
        )}
        {active && (
          <Button variant="record" size="large" onClick={() => void stop()}>
            <Square size={18} aria-hidden="true" /> Stop and save
          </Button>
        )}
      </div>
      {canRecord && !active && phase === "idle" && !stage && <p className={styles.hint}>Tap to record. Your text appears by itself when you stop.</p>}
      {!canRecord && (
        <Notice tone="warning" data-testid="recorder-insecure">
          {INSECURE_ADDRESS} <a href={SECURE_ADDRESS_HELP}>How to set one up</a>
        </Notice>
      )}
      {message && (
        <Notice tone={message.ok ? "success" : "danger"} role={message.ok ? "status" : "alert"} data-testid="recorder-message">
          {message.text}
          {interrupted && phase === "idle" && (
            <Button variant="secondary" block onClick={() => void start()} data-testid="continue-recording">
              <Mic size={18} aria-hidden="true" /> Record more (a new note)
            </Button>
          )}
        </Notice>
      )}
      <div ref={card} className={styles.cardSlot}>
        {stage && <ProgressCard stage={stage} />}
      </div>
      {stage?.kind === "preparing" && (
        <p className="visually-hidden" data-testid="preprocess-progress">
          {stage.step}
        </p>
      )}
      <label className={styles.filePick} onPointerEnter={warmUpAudioTools} onFocus={warmUpAudioTools} onTouchStart={warmUpAudioTools}>
        <Upload size={18} aria-hidden="true" />
        <span>Or choose an audio file</span>
        <input type="file" accept="audio/*,video/mp4,video/webm" onChange={pickFile} disabled={phase !== "idle"} />
      </label>
    </section>
  );
}

