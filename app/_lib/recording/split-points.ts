// Where to cut a long recording: near every `chunkSeconds`, in the middle of the longest
// silence found in the last `searchSeconds` before that mark (a hard cut when there is none),
// so no word is split across two uploads. Pure, so it is unit-tested without a browser.

export type Silence = { start: number; end: number };

export function splitPoints(
  duration: number,
  silences: Silence[],
  { chunkSeconds = 60, searchSeconds = 20, minPartSeconds = 5 }: { chunkSeconds?: number; searchSeconds?: number; minPartSeconds?: number } = {},
): number[] {
  const cuts: number[] = [];
  let from = 0;
  while (duration - from > chunkSeconds) {
    const target = from + chunkSeconds;
    const window = silences
      .map((s) => ({ ...s, mid: (s.start + s.end) / 2 }))
      .filter((s) => s.mid > from + minPartSeconds && s.mid <= target && s.mid >= target - searchSeconds);
    const best = window.sort((a, b) => b.end - b.start - (a.end - a.start) || b.mid - a.mid)[0];
    const cut = best ? best.mid : target;
    if (duration - cut < minPartSeconds) break;
    cuts.push(Math.round(cut * 1000) / 1000);
    from = cut;
  }
  return cuts;
}

/** silencedetect's log lines → silences (an unfinished one at the end runs to `duration`). */
export function parseSilences(log: string[], duration: number): Silence[] {
  const silences: Silence[] = [];
  let start: number | null = null;
  for (const line of log) {
    const s = /silence_start: (-?[\d.]+)/.exec(line);
    if (s) start = Math.max(0, Number(s[1]));
    const e = /silence_end: ([\d.]+)/.exec(line);
    if (e && start !== null) {
      silences.push({ start, end: Number(e[1]) });
      start = null;
    }
  }
  if (start !== null) silences.push({ start, end: duration });
  return silences;
}

/** The last "time=HH:MM:SS.xx" of ffmpeg's progress lines: how much audio it wrote. */
export function parseWrittenSeconds(log: string[]): number {
  let seconds = 0;
  for (const line of log) {
    const m = /time=\s*(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(line);
    if (m) seconds = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  }
  return seconds;
}

/**
 * While recording: where to end the next part of the audio recorded so far after the last cut
 * (`duration` seconds of it), or null to wait for more. A cut lands in the middle of the longest
 * pause between `minSeconds` and `maxSeconds`; a pause still running at the end of what was
 * recorded does not count (the speaker may go on); past `maxSeconds` without one, the cut is hard.
 */
export function nextLiveCut(
  duration: number,
  silences: Silence[],
  { minSeconds = 30, maxSeconds = 60 }: { minSeconds?: number; maxSeconds?: number } = {},
): number | null {
  const finished = silences.filter((s) => s.end < duration - 0.05);
  const inReach = finished
    .map((s) => ({ length: s.end - s.start, mid: (s.start + s.end) / 2 }))
    .filter((s) => s.mid >= minSeconds && s.mid <= maxSeconds)
    .sort((a, b) => b.length - a.length || b.mid - a.mid);
  if (inReach.length) return Math.round(inReach[0].mid * 1000) / 1000;
  return duration > maxSeconds ? maxSeconds : null;
}
