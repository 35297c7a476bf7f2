import { setPriority } from "node:os";
import { env } from "@/lib/env.ts";
import { log } from "@/lib/log.ts";

// Recognizers and decoders run at a lower CPU priority than request handling (RECOGNIZER_NICE,
// default 10): someone's hour-long recording being recognized must not make the person reading a
// note wait (bench:contention). A busy CPU still gives them most of its time; an idle one all of it.

// Among recognitions, a live recording's pieces come first (the person is speaking and waits for
// captions and for Stop), then uploads, then background work (the second pass over a live
// recording, bench:live-load): first in each recognizer's queue, and background work also runs
// its processes at the lowest CPU priority (RECOGNIZER_BACKGROUND_NICE, default 19), so that on a
// busy server it takes only the time live work and requests leave.
//
// Work that keeps pace with someone speaking ("realtime": a live recording's stream recognizer,
// and the decoding of the audio it is fed) runs at RECOGNIZER_REALTIME_NICE, by default as
// requests do: it can take no more than its recordings' speed (a part of a core each, at most
// LIVE_CAPTION_STREAMS of them), and behind a busy server it would fall behind the speech for good
// (bench:live-load: Stop → text 19.7× alone under load when it ran at RECOGNIZER_NICE).
export type Urgency = "realtime" | "live" | "normal" | "background";
export const URGENCY_RANK: Record<Urgency, number> = { realtime: 0, live: 1, normal: 2, background: 3 };

let warned = false;

/** The niceness a recognizer or decoder runs at for work of this urgency. */
export function niceFor(urgency: Urgency = "normal"): number {
  const config = env();
  if (urgency === "realtime") return Math.min(config.RECOGNIZER_NICE, config.RECOGNIZER_REALTIME_NICE);
  return urgency === "background" ? Math.max(config.RECOGNIZER_NICE, config.RECOGNIZER_BACKGROUND_NICE) : config.RECOGNIZER_NICE;
}

/** Lowers a child process (pocketsphinx, ffmpeg) to RECOGNIZER_NICE (background work: lower still) right after it is spawned. */
export function lowerPriority(pid: number | undefined, urgency: Urgency = "normal"): void {
  const nice = niceFor(urgency);
  if (!nice || pid === undefined) return;
  try {
    setPriority(pid, nice);
  } catch (err) {
    // Gone already, or a system that refuses: recognition goes on at normal priority.
    if (!warned) log.warn("could not lower the recognizer's CPU priority", { error: (err as Error).message });
    warned = true;
  }
}

/** The niceness the whisper worker thread gives itself (and the threads it starts inherit). */
export const recognizerNice = (): number => env().RECOGNIZER_NICE;
