// The prompt of an answer to a question across a person's notes: the writer is given numbered
// passages quoted from the notes and nothing else, answers only from them and cites them as [n];
// the server keeps only the numbers it gave (lib/ask/citation-markers.ts).

export type PromptPassage = { n: number; title: string; at: string | null; text: string };

export function answersPrompt({ question, passages }: { question: string; passages: PromptPassage[] }): { system: string; prompt: string } {
  const system = [
    "You answer a person's question about their own voice notes.",
    "Use ONLY the numbered passages you are given: they are quoted from the person's notes. Use nothing else you know, and never guess.",
    "After each statement, cite the passages it rests on by their numbers in square brackets, like [2] or [1][3]. Cite only numbers you were given.",
    "If the passages do not answer the question, say so in one sentence.",
    "Speak to the person as \"you\" (the passages are what they said). Be brief: at most four sentences, no headings, no lists.",
    "Write in the language of the question.",
  ].join("\n");
  const lines = passages.map((p) => `[${p.n}] (${p.title}${p.at ? `, at ${p.at}` : ""}) ${p.text}`);
  return { system, prompt: `Passages:\n${lines.join("\n")}\n\nQuestion: ${question}` };
}
