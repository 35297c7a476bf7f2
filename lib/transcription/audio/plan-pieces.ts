/** A stretch of speech found by voice-activity detection, in seconds. */
export type SpeechSpan = { start: number; end: number };

/** A slice of the recording to recognize on its own (seconds in the recording). */
export type Piece = { start: number; end: number };

export type PlanOptions = {
  /** Pieces are cut at pauses so that each is about minSeconds–maxSeconds long (30–60 s). */
  minSeconds?: number;
  maxSeconds?: number;
  /** A pause longer than this (2 s) ends a piece; the silence itself is not recognized. */
  maxSilenceSeconds?: number;
  /**
   * The first piece of a recording long enough to be cut is cut sooner, in a pause at
   * firstMinSeconds–firstMaxSeconds (default ⅔ of minSeconds to minSeconds, 20–30 s), so that its
   * text — the first a stream sends — comes sooner. A recording that fits one piece stays whole.
   */
  firstMinSeconds?: number;
  firstMaxSeconds?: number;
  /** Audio kept before and after speech (0.2 s), never past the middle of a pause. */
  padSeconds?: number;
  /**
   * Where to cut a single span of speech longer than maxSeconds × longSpanFactor, somewhere in [from, to]
   * (e.g. its quietest moment); without it, the cut is hard at `to` (the limit).
   */
  cutAt?: (from: number, to: number) => number;
  /**
   * A single span of speech is cut once it is longer than maxSeconds × this (1.5: a long phrase
   * stays whole rather than be cut between words). At Stop, where a second less to wait counts
   * more, 1.
   */
  longSpanFactor?: number;
};

const DEFAULTS = { minSeconds: 30, maxSeconds: 60, maxSilenceSeconds: 2, padSeconds: 0.2 };

/**
 * The slices to recognize: each about minSeconds–maxSeconds long, cut only in pauses (never
 * inside a span of speech, except a single span longer than maxSeconds × longSpanFactor (1.5), which is cut at
 * `cutAt` or hard at the limit), padded a little around speech, and without silent stretches
 * longer than maxSilenceSeconds: such a stretch ends a piece, and the silence between pieces is
 * not recognized at all. No speech → [].
 */
export function planPieces(spans: SpeechSpan[], durationSec: number, opts: PlanOptions = {}): Piece[] {
  const { minSeconds, maxSeconds, maxSilenceSeconds, padSeconds } = { ...DEFAULTS, ...definedOnly(opts) };
  if (!(maxSeconds > 0) || !(minSeconds >= 0) || minSeconds > maxSeconds) {
    throw new RangeError(`planPieces: need 0 ≤ minSeconds ≤ maxSeconds and maxSeconds > 0 (got ${minSeconds}, ${maxSeconds})`);
  }
  const speech = splitLongSpans(normalize(spans, durationSec), maxSeconds, opts.cutAt, opts.longSpanFactor ?? 1.5);
  if (!speech.length) return [];

  // Runs of speech whose pauses are all short enough to keep; each run is one or more pieces.
  const runs: Span[][] = [];
  for (const span of speech) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    if (run && last && span.start - last.end <= maxSilenceSeconds && !last.forcedCut) run.push(span);
    else runs.push([span]);
  }

  const firstMaxSeconds = Math.min(opts.firstMaxSeconds ?? minSeconds, maxSeconds);
  const firstPiece = { min: Math.min(opts.firstMinSeconds ?? (minSeconds * 2) / 3, firstMaxSeconds), max: firstMaxSeconds };
  const groups = runs.flatMap((run, r) => cutRun(run, minSeconds, maxSeconds, r === 0 ? firstPiece : undefined));
  return groups.map((group, i) => {
    const first = group[0];
    const last = group[group.length - 1];
    const previousEnd = i > 0 ? groups[i - 1].at(-1)!.end : 0;
    const nextStart = i + 1 < groups.length ? groups[i + 1][0].start : durationSec;
    // Padding reaches at most halfway into the pause, so neighbours never overlap.
    const before = Math.min(padSeconds, i > 0 ? (first.start - previousEnd) / 2 : first.start);
    const after = Math.min(padSeconds, i + 1 < groups.length ? (nextStart - last.end) / 2 : durationSec - last.end);
    return { start: round(first.start - before), end: round(last.end + after) };
  });
}

type Span = SpeechSpan & { forcedCut?: boolean };

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Sorted, clamped to the recording, overlapping or touching spans merged, empty ones dropped. */
function normalize(spans: SpeechSpan[], durationSec: number): Span[] {
  const clamped = spans
    .filter((s) => Number.isFinite(s.start) && Number.isFinite(s.end))
    .map((s) => ({ start: Math.max(0, s.start), end: Math.min(durationSec, s.end) }))
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const s of clamped) {
    const last = merged.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  return merged;
}

/** Spans longer than maxSeconds × `factor` (longSpanFactor) become parts of at most maxSeconds, each ending a piece. */
function splitLongSpans(spans: Span[], maxSeconds: number, cutAt: ((from: number, to: number) => number) | undefined, factor: number): Span[] {
  const out: Span[] = [];
  for (const span of spans) {
    let start = span.start;
    while (span.end - start > maxSeconds * factor) {
      // Cut somewhere in the last half of the allowed length, so no part is very short.
      const from = start + maxSeconds / 2;
      const to = start + maxSeconds;
      const proposed = cutAt ? cutAt(from, to) : to;
      const cut = Number.isFinite(proposed) ? Math.min(to, Math.max(from, proposed)) : to;
      out.push({ start, end: cut, forcedCut: true });
      start = cut;
    }
    out.push({ start, end: span.end });
  }
  return out;
}

/**
 * A run longer than maxSeconds is cut in its pauses: each piece ends at the longest pause that
 * leaves it minSeconds–maxSeconds long; with no pause there, at the last pause before
 * maxSeconds, else at the first one after it (only a span longer than maxSeconds leaves none).
 * The run's first piece is held to `first` (its min–max) when given.
 */
function cutRun(run: Span[], minLength: number, maxLength: number, first?: { min: number; max: number }): Span[][] {
  const groups: Span[][] = [];
  let i = 0;
  while (i < run.length) {
    const start = run[i].start;
    if (run[run.length - 1].end - start <= maxLength) {
      groups.push(run.slice(i));
      break;
    }
    const [minSeconds, maxSeconds] = first && !groups.length ? [first.min, first.max] : [minLength, maxLength];
    // Candidate cuts: after span j (j ≥ i), in the pause between run[j] and run[j + 1].
    let best = -1;
    let bestGap = -1;
    let lastBefore = -1;
    let firstAfter = -1;
    for (let j = i; j + 1 < run.length; j++) {
      const length = run[j].end - start;
      if (length > maxSeconds) {
        if (firstAfter < 0) firstAfter = j;
        break;
      }
      lastBefore = j;
      const gap = run[j + 1].start - run[j].end;
      if (length >= minSeconds && gap > bestGap) {
        best = j;
        bestGap = gap;
      }
    }
    const cut = best >= 0 ? best : lastBefore >= 0 ? lastBefore : firstAfter >= 0 ? firstAfter : run.length - 1;
    groups.push(run.slice(i, cut + 1));
    i = cut + 1;
  }
  return groups;
}

const round = (s: number) => Math.round(s * 1000) / 1000;
