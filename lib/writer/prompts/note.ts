// What every task on a note reads first, in the same words for each task: the rules they share, the
// note's language and spellings (the system prompt), then the note (the first user message). Each
// task's own short instruction comes after it (the second), so the model on this machine evaluates
// the note once and each task reads only its instruction (lib/writer/local/runtime.ts keeps the
// evaluated prefix). Anything a task alone needs, the note's title included, goes in its instruction.

/** The note's prompt with one task: the note first, then the task. */
export type NoteTask = { note: string; task: string };

/** `language`: the note's language by name; `keep`: the person's spellings the note uses. */
export function noteSystem({ language, keep }: { language: string; keep: string[] }): string {
  // Every word here is read once per note, before the note: as few as say it (issue 67 counts them).
  return [
    "The author's voice note (transcribed speech) comes first, then one task: do only that task.",
    "Use only what the note says: add no facts, names, numbers or opinions, and no commentary.",
    // What every post shares is said here, once per note, not in each post's task.
    "Posts are in the author's voice, ready to publish, without hashtags.",
    `Write in ${language}.`,
    // Sorted: the same spellings in the same order for every task of the note.
    ...(keep.length ? [`Write these exactly as spelled here: ${[...keep].sort().join(", ")}.`] : []),
  ].join("\n");
}
