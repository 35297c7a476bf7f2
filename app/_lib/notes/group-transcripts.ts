import type { Transcription } from "@/app/_lib/api.ts";

/** One line of the list: a transcript, or the parts of one recording (in part order). */
export type Entry = { kind: "transcript"; transcript: Transcription } | { kind: "recording"; id: string; parts: Transcription[] };

/** Groups the parts of each split recording into one entry, where its newest part appears. */
export function groupByRecording(items: Transcription[]): Entry[] {
  const partsOf = new Map<string, Transcription[]>();
  for (const t of items) if (t.recording) partsOf.set(t.recording.id, [...(partsOf.get(t.recording.id) ?? []), t]);
  const entries: Entry[] = [];
  const shown = new Set<string>();
  for (const t of items) {
    const parts = t.recording ? partsOf.get(t.recording.id)! : [t];
    // A recording that is only its part 0 was never split: it reads as a plain transcript.
    if (!t.recording || (parts.length === 1 && t.recording.part === 0)) entries.push({ kind: "transcript", transcript: t });
    else if (!shown.has(t.recording.id)) {
      shown.add(t.recording.id);
      entries.push({ kind: "recording", id: t.recording.id, parts: [...parts].sort((a, b) => a.recording!.part - b.recording!.part) });
    }
  }
  return entries;
}
