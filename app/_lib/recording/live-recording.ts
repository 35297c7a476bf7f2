import type { LiveRecording } from "@/lib/transcription/schemas.ts";
import type { TranscriptionResult } from "@/lib/notes/schemas.ts";
import { captionsReach, settledPieces } from "@/lib/transcription/live/captions-reach.ts";

// The phone's side of recognizing while the person speaks. While recording, every chunk the
// recorder writes (about a second) is sent at once as the next bytes of the live recording
// (PATCH /api/v1/live-recordings/{id}?offset=…), and the answer's captions are shown. Nothing
// depends on it: the chunks are also in IndexedDB, and at Stop the whole recording is queued; the
// queue sends only what the server does not hold yet, then asks for the note (…/finish). When the
// server will not take the recording live (too many open on the account, audio it cannot follow,
// or it made a note of part of it after the phone went quiet), the queue sends it whole instead,
// as any recording: never is a recording lost to a refusal. Beside the PATCHes, one request at a
// time waits for the next captions (GET …?captions_after), so a phrase shows as soon as the server
// hears it, not at the next PATCH's answer.

export type LiveCaptions = Pick<LiveRecording, "text" | "provisional_text" | "provisional_until" | "pieces" | "heard_seconds">;

/** The most one PATCH carries (the server takes 8 MiB): an offline backlog goes in several. */
const MAX_BODY = 4 * 1024 * 1024;
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 10_000;
/** The most seconds the server holds a request for new captions. */
const CAPTIONS_WAIT_SECONDS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const path = (id: string) => `/api/v1/live-recordings/${encodeURIComponent(id)}`;

type Refusal = { ok: false; status: number; code: string | null; message: string };
type Reply = { ok: true; live: LiveRecording } | Refusal;

async function answer(res: Response): Promise<Reply> {
  const body = await res.json().catch(() => null);
  if (res.ok) return { ok: true, live: body as LiveRecording };
  const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
  return { ok: false, status: res.status, code: error?.code ?? null, message: error?.message ?? `The server answered ${res.status}.` };
}

/** Sends `bytes` as the recording's bytes from `offset`. Throws only when the network fails. */
async function append(id: string, offset: number, bytes: Blob, type: string, recordedAt: number): Promise<Reply> {
  const query = offset === 0 ? `&recorded_at=${encodeURIComponent(new Date(recordedAt).toISOString())}` : "";
  const res = await fetch(`${path(id)}?offset=${offset}${query}`, {
    method: "PATCH",
    body: bytes,
    headers: { "content-type": type || "application/octet-stream" },
    credentials: "same-origin",
  });
  return answer(res);
}

/** How many bytes of the recording the server holds (0: none yet), and whether it is a note already. */
async function held(id: string): Promise<{ bytes: number; transcriptionId: string | null } | Refusal> {
  const res = await fetch(path(id), { credentials: "same-origin" });
  if (res.status === 404) return { bytes: 0, transcriptionId: null };
  const reply = await answer(res);
  return reply.ok ? { bytes: reply.live.bytes_received, transcriptionId: reply.live.transcription_id } : reply;
}

export type LiveSender = {
  /** The recorder wrote another chunk. */
  push(chunk: Blob): void;
  /** Stops sending (Stop): resolves once the request in flight is answered. */
  stop(): Promise<void>;
};

/**
 * Refusals after which the recording is not sent live any more (retrying would be refused again);
 * the queue sends it whole after Stop. `null`: worth another try later.
 */
export function liveRefusal(reply: Refusal): string | null {
  if (reply.code === "too_many_live_recordings") return "No captions this time: too many recordings are being captioned on your account at once.";
  if (reply.code === "recording_finished") return "No captions any more: the server made a note of what it had while the phone was quiet.";
  if (reply.status === 401 || reply.status === 429 || reply.status >= 500) return null;
  return `No captions for this recording: ${reply.message}`;
}

/**
 * Sends a recording's chunks as they come, one request at a time, in order. A failed request
 * (offline, a server restart) is tried again after a growing pause, from the bytes the server
 * holds; the recording itself never waits for it. `onOff` says why it stopped sending for good.
 */
export function startLiveSender(id: string, type: string, recordedAt: number, onCaptions: (captions: LiveCaptions) => void, onOff?: (why: string) => void): LiveSender {
  const chunks: Blob[] = [];
  let total = 0;
  let sent = 0;
  let failures = 0;
  let stopped = false;
  let running: Promise<void> | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const listening = new AbortController();
  let listener: Promise<void> | null = null;
  // What is on screen: the PATCH answers and the captions requests come back in any order, and
  // an older answer must not take back words already shown.
  let shown = { settled: 0, reach: 0 };
  const show = (live: LiveRecording) => {
    const next = { settled: settledPieces(live), reach: captionsReach(live) };
    if (next.settled < shown.settled || (next.settled === shown.settled && next.reach < shown.reach)) return;
    shown = next;
    onCaptions({
      text: live.text,
      provisional_text: live.provisional_text ?? "",
      provisional_until: live.provisional_until ?? null,
      pieces: live.pieces,
      heard_seconds: live.heard_seconds,
    });
  };
  // Waits for the captions past those shown, again and again, while recording. A failure (offline,
  // a server that does not hold requests) pauses it; the PATCH answers still carry captions.
  const listen = async () => {
    let failures = 0;
    while (!stopped) {
      try {
        const res = await fetch(`${path(id)}?captions_after=${shown.reach.toFixed(3)}&wait=${CAPTIONS_WAIT_SECONDS}`, { credentials: "same-origin", signal: listening.signal });
        const reply = await answer(res);
        if (!reply.ok) throw new Error(reply.message);
        failures = 0;
        const before = shown.reach;
        show(reply.live);
        if (reply.live.status !== "recording") return;
        // An answer at once with nothing new (it cannot be, but never a busy loop).
        if (shown.reach <= before) await sleep(250);
      } catch {
        if (stopped) return;
        failures += 1;
        await sleep(Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** failures));
      }
    }
  };

  const pump = async () => {
    while (!stopped && sent < total) {
      const body = new Blob(chunks, { type }).slice(sent, Math.min(total, sent + MAX_BODY), type);
      let reply: Reply;
      try {
        reply = await append(id, sent, body, type, recordedAt);
      } catch {
        return later();
      }
      if (reply.ok) {
        sent = reply.live.bytes_received;
        failures = 0;
        show(reply.live);
        // The recording exists now: captions can be waited for.
        listener ??= listen();
      } else if (reply.code === "offset_mismatch") {
        const now = await held(id).catch(() => null);
        if (!now || "ok" in now) return later();
        sent = Math.min(now.bytes, total);
      } else {
        const why = liveRefusal(reply);
        if (why === null) return later();
        // This recording cannot go live (too many open, a format the server cannot read as it
        // grows, a finished recording): it goes on on the phone, and the queue sends it after Stop.
        stopped = true;
        listening.abort();
        onOff?.(why);
      }
    }
  };
  const later = () => {
    failures += 1;
    clearTimeout(retry);
    retry = setTimeout(kick, Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (failures - 1)));
  };
  const kick = () => {
    if (running || stopped) return;
    running = pump().finally(() => (running = null));
  };
  const onOnline = () => (failures = 0, kick());
  window.addEventListener("online", onOnline);

  return {
    push(chunk) {
      chunks.push(chunk);
      total += chunk.size;
      if (failures === 0) kick(); // after a failure, the retry's timer sends it
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      listening.abort();
      window.removeEventListener("online", onOnline);
      await running;
    },
  };
}

export type LiveOutcome =
  | { status: "done"; transcriptionId: string }
  | { status: "failed"; error: string }
  | { status: "retry"; error: string }
  /** The server cannot take it live: send it whole (POST /transcribe). */
  | { status: "whole" };

/** Refusals of an append after which the recording is sent whole (POST /transcribe) instead. */
const SEND_WHOLE = new Set(["too_many_live_recordings", "unsupported_audio", "recording_finished"]);

/**
 * The queue's upload of a live recording after Stop: the bytes the server does not hold yet, then
 * finish. Safe to repeat from any point: appends go by offset, and finishing twice answers one note.
 * "whole" when the server will not take it live: too many live recordings open (it never started
 * live), audio it cannot follow, or a note the server made of only part of it (it heard nothing
 * for a while and finished it): the whole recording then becomes a note of its own.
 */
export async function finishLiveUpload(id: string, blob: Blob, recordedAt: number, onProgress?: (loaded: number, total: number) => void): Promise<LiveOutcome> {
  try {
    let state = await held(id);
    if ("ok" in state) return outcome(state);
    if (state.transcriptionId) return state.bytes < blob.size ? { status: "whole" } : { status: "done", transcriptionId: state.transcriptionId };
    let offset = state.bytes;
    while (offset < blob.size) {
      onProgress?.(offset, blob.size);
      const reply = await append(id, offset, blob.slice(offset, Math.min(blob.size, offset + MAX_BODY), blob.type), blob.type, recordedAt);
      if (reply.ok) offset = reply.live.bytes_received;
      else if (reply.code === "offset_mismatch") {
        state = await held(id);
        if ("ok" in state) return outcome(state);
        offset = state.bytes;
      } else if (reply.code && SEND_WHOLE.has(reply.code)) return { status: "whole" };
      else return outcome(reply);
    }
    onProgress?.(blob.size, blob.size);
    const res = await fetch(`${path(id)}/finish`, { method: "POST", credentials: "same-origin" });
    const reply = await res.json().catch(() => null);
    if (res.ok) return { status: "done", transcriptionId: (reply as TranscriptionResult).id };
    const error = (reply as { error?: { code?: string; message?: string } } | null)?.error;
    return outcome({ ok: false, status: res.status, code: error?.code ?? null, message: error?.message ?? `The server answered ${res.status}.` });
  } catch {
    return { status: "retry", error: "No connection; will retry." };
  }
}

function outcome(reply: Refusal): LiveOutcome {
  // Signed out, rate limited or the server unwell: worth another try. Anything else is about this audio.
  if (reply.status === 401 || reply.status === 429 || reply.status >= 500) return { status: "retry", error: reply.message };
  return { status: "failed", error: reply.message };
}
