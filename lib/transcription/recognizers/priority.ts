import { setPriority } from "node:os";
import { env } from "@/lib/env.ts";
import { log } from "@/lib/log.ts";

// Recognizers and decoders run at a lower CPU priority than request handling (RECOGNIZER_NICE,
// default 10): someone's hour-long recording being recognized must not make the person reading a
// note wait (bench:contention). A busy CPU still gives them most of its time; an idle one all of it.

let warned = false;

/** Lowers a child process (pocketsphinx, ffmpeg) to RECOGNIZER_NICE right after it is spawned. */
export function lowerPriority(pid: number | undefined): void {
  const nice = env().RECOGNIZER_NICE;
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
