// The prompt of a rewrite of a note in one style ("Rewrite as…"): the style's name and
// instructions (a built-in's, or the person's own), the note's language, the spellings to keep.

export function rewritePrompt(p: { name: string; instructions: string; language: string; keep: string[]; title: string | null; text: string }): { system: string; prompt: string } {
  const lines = [
    `You rewrite the author's voice note (a transcript of speech) as: ${p.name}.`,
    p.instructions,
    "Use only what the note says: keep the author's facts, names and numbers, add nothing they did not say, and leave out filler words. No commentary about the task.",
    `Write in ${p.language}, the note's language.`,
  ];
  if (p.keep.length) lines.push(`Write these exactly as spelled here: ${p.keep.join(", ")}.`);
  return { system: lines.join("\n"), prompt: p.title ? `Title of the note: ${p.title}\n\n${p.text}` : p.text };
}
