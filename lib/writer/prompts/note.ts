// What every task on a note reads first, in the same words for each task: the rules they share, the
// note's language and spellings (the system prompt), then the note (the first user message). Each
// task's own short instruction comes after it (the second), so the model on this machine evaluates
// the note once and each task reads only its instruction (lib/writer/local/runtime.ts keeps the
// evaluated prefix). Anything a task alone needs, the note's title included, goes in its instruction.

/** The note's prompt with one task: the note first, then the task. */
export type NoteTask = { note: string; task: string };

/** `language`: the note's language by name; `keep`: the person's spellings the note uses. */
export function noteSystem({ language, keep }: { language: string; keep: string[] }): string {
  return [
    "You work on the author's voice note, transcribed from speech. The note comes first; after it, one task: do that task and nothing else.",
    "Use only what the note says: keep the author's facts, names, numbers and opinions, and add nothing they did not say. No commentary about the task.",
    // What every post shares is said here, once per note, not in each post's task (read once: issue 67).
    "A post is in the author's own voice, ready to publish: no hashtags, no emoji unless the tone is casual, a title only when asked.",
    `Write in ${language}, the note's language.`,
    // Sorted: the same spellings in the same order for every task of the note.
    ...(keep.length ? [`Write these exactly as spelled here: ${[...keep].sort().join(", ")}.`] : []),
  ].join("\n");
}
