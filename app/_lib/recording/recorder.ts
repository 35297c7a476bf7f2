import { localDb, type LocalRecording, type QueuedUpload } from "@/app/_lib/local-db.ts";
import { enqueueLiveRecording, enqueuePart, enqueueUploads, finishRecordingParts, type NewUpload } from "@/app/_lib/recording/upload-queue.ts";
import { cutRecording } from "@/app/_lib/recording/preprocess.ts";
import { startLiveSender, type LiveCaptions } from "@/app/_lib/recording/live-recording.ts";
import { captionsReach } from "@/lib/transcription/live/captions-reach.ts";

// Recording with MediaRecorder. Every second of audio is written to IndexedDB as it arrives, so
// a closed tab or a dead battery loses at most about a second; recoverInterruptedRecordings
// turns what was saved into a queued upload on the next visit.
//
// Recognized while it is made: each second of audio is also sent at once as the next bytes of a
// live recording (app/_lib/recording/live-recording.ts); the server cuts it at pauses and
// recognizes the pieces as they come, and its answers are the captions. At Stop the whole
// recording is queued, and only what the server lacks is sent before it makes the note.

const TIMESLICE_MS = 1000;
const LOCK_PREFIX = "voicedraft-recording-";

/** webm/opus where the browser has it (Chromium, Firefox, Android), else mp4/aac (Safari). */
export function pickContainer(): { mimeType: string; extension: string } {
  const candidates = [
    { mimeType: "audio/webm;codecs=opus", extension: "webm" },
    { mimeType: "audio/mp4;codecs=mp4a.40.2", extension: "m4a" },
    { mimeType: "audio/mp4", extension: "m4a" },
    { mimeType: "audio/ogg;codecs=opus", extension: "ogg" },
  ];
  return candidates.find((c) => MediaRecorder.isTypeSupported(c.mimeType)) ?? { mimeType: "", extension: "webm" };
}

const extensionOf = (mimeType: string) => (mimeType.includes("mp4") ? "m4a" : mimeType.includes("ogg") ? "ogg" : "webm");

export type Recording = {
  id: string;
  mimeType: string;
  /** When it started (ms since the epoch): the note's recorded_at. */
  createdAt: number;
  /** 0..1, the loudness right now, for the level meter. */
  level(): number;
  pause(): void;
  resume(): void;
  /** Stops, and returns the whole recording as one Blob (also still in IndexedDB until queued). */
  stop(): Promise<{ blob: Blob }>;
  state(): RecordingState;
};

/** Why a recording stopped without Stop: the microphone was taken (a call, another app, permission revoked). */
export type Interruption = "ended" | "muted";

type Hooks = {
  /** The server's captions so far, after each second of audio it received. */
  onCaptions?: (captions: LiveCaptions) => void;
  /** The server will not caption this recording (why, in plain words); it goes on, and is sent whole at Stop. */
  onCaptionsOff?: (why: string) => void;
  /** The audio track ended or went silent for good: the recording should stop, keeping what it has. */
  onInterrupted?: (reason: Interruption) => void;
  /** Back in view after the page was hidden: how many seconds of audio the browser did not record meanwhile. */
  onReturn?: (lostSeconds: number, hiddenSeconds: number) => void;
};

// A locked screen suspends the page (and the recording) on phones: hold the screen on while
// recording. The lock is dropped whenever the page is hidden, so it is asked for again on return.
function holdScreenOn(): { release(): void } {
  let lock: { release(): Promise<void> } | null = null;
  let held = true;
  const wakeLock = (navigator as Navigator & { wakeLock?: { request(type: "screen"): Promise<{ release(): Promise<void> }> } }).wakeLock;
  const acquire = () => {
    if (!wakeLock || !held || document.visibilityState !== "visible") return;
    wakeLock.request("screen").then(
      (l) => (held ? (lock = l) : void l.release()),
      () => undefined, // refused (battery saver, no user gesture): recording goes on without it
    );
  };
  const onVisible = () => document.visibilityState === "visible" && acquire();
  document.addEventListener("visibilitychange", onVisible);
  acquire();
  return {
    release() {
      held = false;
      document.removeEventListener("visibilitychange", onVisible);
      void lock?.release().catch(() => undefined);
      lock = null;
    },
  };
}

export async function startRecording(owner: string, { onCaptions, onCaptionsOff, onInterrupted, onReturn }: Hooks = {}): Promise<Recording> {
  // The browser's voice-call processing (echo cancellation, noise suppression, gain) smears
  // consonants and costs recognition accuracy; a voice note wants the plain signal.
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false, channelCount: 1 },
  });
  const { mimeType } = pickContainer();
  const recorder = new MediaRecorder(stream, mimeType ? { mimeType, audioBitsPerSecond: 64_000 } : undefined);
  const id = crypto.randomUUID();
  const db = await localDb();
  const type = recorder.mimeType || mimeType;
  const row: LocalRecording = { id, owner, createdAt: Date.now(), mimeType: type, state: "recording", live: true };
  await db.put("recordings", row);

  let seq = 0;
  let writes = Promise.resolve();
  const live = startLiveSender(id, type.split(";")[0] || "audio/webm", row.createdAt, (captions) => {
    // For bench:app-record: how far into the recording the words on screen reach, and when.
    performance.mark("voicedraft:captions", { detail: { heard: captionsReach(captions) } });
    onCaptions?.(captions);
  }, onCaptionsOff);
  recorder.ondataavailable = (event) => {
    if (!event.data.size) return;
    const chunk = { recordingId: id, seq: seq++, blob: event.data };
    writes = writes.then(() => db.put("recordingChunks", chunk).then(() => undefined));
    live.push(event.data);
  };

  const audio = new AudioContext();
  await audio.resume(); // created after an await, so not "allowed to start" by the click by itself
  const analyser = audio.createAnalyser();
  analyser.fftSize = 1024;
  audio.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);

  const stopped = new Promise<void>((resolve) => (recorder.onstop = () => resolve()));
  const screen = holdScreenOn();
  for (const track of stream.getAudioTracks()) {
    track.addEventListener("ended", () => onInterrupted?.("ended"));
    // A mute that lasts (a phone call took the microphone) ends the recording; a blip does not.
    let muteTimer: ReturnType<typeof setTimeout> | undefined;
    track.addEventListener("mute", () => (muteTimer = setTimeout(() => track.muted && onInterrupted?.("muted"), 3000)));
    track.addEventListener("unmute", () => clearTimeout(muteTimer));
  }
  // While hidden, a phone may stop delivering audio: on return, say how much is missing.
  let hiddenAt: { time: number; seq: number } | null = null;
  const onVisibility = () => {
    if (recorder.state !== "recording") return void (hiddenAt = null);
    if (document.visibilityState === "hidden") hiddenAt = { time: performance.now(), seq };
    else if (hiddenAt) {
      const hiddenSeconds = (performance.now() - hiddenAt.time) / 1000;
      const recordedSeconds = ((seq - hiddenAt.seq) * TIMESLICE_MS) / 1000;
      hiddenAt = null;
      onReturn?.(Math.max(0, Math.round(hiddenSeconds - recordedSeconds - 2)), Math.round(hiddenSeconds));
    }
  };
  document.addEventListener("visibilitychange", onVisibility);
  // Held while recording, so another tab's recovery leaves this recording alone.
  let releaseLock = () => {};
  void navigator.locks?.request(`${LOCK_PREFIX}${id}`, () => new Promise<void>((resolve) => (releaseLock = resolve)));
  recorder.start(TIMESLICE_MS);
  performance.mark("voicedraft:record-start");

  return {
    id,
    mimeType: type,
    createdAt: row.createdAt,
    level() {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const s of samples) sum += s * s;
      return Math.min(1, Math.sqrt(sum / samples.length) * 4);
    },
    pause: () => recorder.pause(),
    resume: () => recorder.resume(),
    state: () => recorder.state,
    async stop() {
      if (recorder.state !== "inactive") recorder.stop();
      await stopped;
      screen.release();
      document.removeEventListener("visibilitychange", onVisibility);
      stream.getTracks().forEach((t) => t.stop());
      await audio.close();
      await writes;
      await live.stop();
      releaseLock();
      await db.put("recordings", { ...row, state: "stopped" });
      return { blob: await assemble(id) };
    },
  };
}

async function assemble(recordingId: string): Promise<Blob> {
  const db = await localDb();
  const [recording, chunks] = await Promise.all([
    db.get("recordings", recordingId),
    db.getAllFromIndex("recordingChunks", "byRecording", recordingId),
  ]);
  chunks.sort((a, b) => a.seq - b.seq);
  return new Blob(chunks.map((c) => c.blob), { type: recording?.mimeType.split(";")[0] ?? "audio/webm" });
}

/** Queues a live recording (the whole of it) to be finished, and forgets the raw chunks, in that order. */
export async function queueLiveRecording(owner: string, recording: { id: string; mimeType: string; createdAt: number }, blob: Blob): Promise<QueuedUpload[]> {
  const fileName = recordingFileName(recording.mimeType, recording.createdAt);
  const items = await enqueueLiveRecording(owner, recording.id, { blob, fileName, mimeType: blob.type || recording.mimeType }, recording.createdAt);
  await forgetChunks(recording.id);
  return items;
}

/** Queues the recording's parts for upload and forgets the raw chunks, in that order. */
export async function queueRecording(owner: string, recordingId: string, parts: NewUpload[]): Promise<QueuedUpload[]> {
  const items = await enqueueUploads(owner, parts, recordingId);
  await forgetChunks(recordingId);
  return items;
}

const partFileName = (recording: LocalRecording, part: number) =>
  recordingFileName(recording.mimeType, recording.createdAt).replace(/\.[^.]+$/, `-part-${part}.ogg`);

/**
 * The end of a recording made before live recordings, whose first parts went up while it was
 * made: the rest after `cutAt` becomes its last part, and every part learns the count.
 */
export async function finishRecordingInParts(owner: string, recordingId: string, blob: Blob): Promise<QueuedUpload[]> {
  const db = await localDb();
  const recording = await db.get("recordings", recordingId);
  if (!recording) throw new Error("the recording is no longer on this device");
  const queued = recording.partsQueued ?? 0;
  const { part } = await cutRecording(blob, recording.cutAt ?? 0, true);
  // A silent or empty rest (Stop right after a cut) adds no part.
  if (part && part.end - part.start >= 0.5) {
    await enqueuePart(owner, recordingId, queued + 1, { blob: part.blob, fileName: partFileName(recording, queued + 1), mimeType: "audio/ogg" });
  }
  const items = await finishRecordingParts(recordingId, part && part.end - part.start >= 0.5 ? queued + 1 : queued);
  await forgetChunks(recordingId);
  return items;
}

async function forgetChunks(recordingId: string): Promise<void> {
  const db = await localDb();
  const tx = db.transaction(["recordings", "recordingChunks"], "readwrite");
  const keys = await tx.objectStore("recordingChunks").index("byRecording").getAllKeys(recordingId);
  await Promise.all([...keys.map((k) => tx.objectStore("recordingChunks").delete(k)), tx.objectStore("recordings").delete(recordingId), tx.done]);
}

/** The file name of a whole recording. */
export function recordingFileName(mimeType: string, createdAt = Date.now()): string {
  return `recording-${new Date(createdAt).toISOString().replace(/[:.]/g, "-")}.${extensionOf(mimeType)}`;
}

/**
 * Recordings that never reached stop() (tab closed, crash, power loss): queue what was saved.
 * A recording still running in another tab holds its lock, so it is left alone.
 */
export async function recoverInterruptedRecordings(owner: string): Promise<number> {
  // One recovery at a time (the app frame and the Record page both ask on opening): a second one
  // waits, then finds the recording already queued and gone from the list.
  if (navigator.locks) return navigator.locks.request(`${LOCK_PREFIX}recovery`, () => recover(owner));
  return recover(owner);
}

async function recover(owner: string): Promise<number> {
  const db = await localDb();
  const held = new Set(((await navigator.locks?.query())?.held ?? []).map((lock) => lock.name));
  let recovered = 0;
  for (const recording of await db.getAll("recordings")) {
    if (recording.owner !== owner || held.has(`${LOCK_PREFIX}${recording.id}`)) continue;
    const blob = await assemble(recording.id);
    if (!blob.size) {
      await db.delete("recordings", recording.id);
      continue;
    }
    if (recording.live) {
      // Sent while it was made: the server holds most of it, the queue sends the rest and finishes it.
      await queueLiveRecording(owner, recording, blob);
      recovered += 1;
      continue;
    }
    if (recording.partsQueued) {
      // Recorded before live recordings: its first parts went up while it was made; only the rest is left.
      await finishRecordingInParts(owner, recording.id, blob);
      recovered += 1;
      continue;
    }
    await queueRecording(owner, recording.id, [{ blob, fileName: recordingFileName(recording.mimeType, recording.createdAt), mimeType: blob.type }]);
    recovered += 1;
  }
  return recovered;
}
