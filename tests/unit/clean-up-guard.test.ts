import assert from "node:assert/strict";
import { test } from "node:test";
import { judgeCleanUp, wordChanges, wordsOf } from "@/lib/clean-up/clean-up-guard.ts";
import { loadCorpus, type CorpusNote } from "@/tests/support/writer-corpus.ts";

// The clean-up guard's thresholds, shown on the 20-note corpus: each note as a recognizer hears it
// (lower case, no punctuation, a filler now and then, a word said twice), against clean-ups a good
// model writes (the note itself; the note with two small corrections) and the ones a model gets
// wrong (a sentence left out, a question in the note answered, a greeting, an unrelated text).

const FILLER: Record<string, string> = { en: "um", de: "äh", fr: "euh", es: "eh" };

/** The note as a recognizer would give it. */
function heard(note: CorpusNote): string {
  const words = wordsOf(note.text);
  return words.flatMap((w, i) => (i % 11 === 5 ? [FILLER[note.language] ?? "um", w] : i === 3 ? [w, w] : [w])).join(" ");
}

const sentences = (text: string) => text.split(/(?<=[.!?])\s+/).filter((s) => s.trim());

function withCorrections(text: string): string {
  const words = text.split(" ");
  for (const i of [2, Math.floor(words.length / 2)]) if (words[i]) words[i] = words[i].endsWith(".") ? "thing." : "thing";
  return words.join(" ");
}

const WRONG: Record<string, (note: CorpusNote) => string> = {
  "drops a sentence": (n) => {
    const all = sentences(n.text);
    const longest = all.reduce((a, b) => (wordsOf(b).length > wordsOf(a).length ? b : a));
    return all.length > 1 ? all.filter((s) => s !== longest).join(" ") : all[0].split(" ").slice(0, Math.ceil(all[0].split(" ").length / 2)).join(" ");
  },
  "answers a question": (n) => `${n.text} To answer your question: most teams do this because it is simple and nobody owns the process.`,
  "adds a greeting": (n) => `Sure! Here is the cleaned-up text: ${n.text}`,
  unrelated: () => "As an AI language model, I can help you write a blog post about productivity tips for remote teams and the tools they use.",
};

const corpus = loadCorpus();

test("the corpus's true clean-ups are kept and each kind of wrong one is refused (the table)", () => {
  const rows: string[] = [];
  const refusedGood: string[] = [];
  const keptWrong: string[] = [];
  for (const note of corpus) {
    const recognized = heard(note);
    const cells: string[] = [];
    for (const [kind, cleaned] of [["as written", note.text], ["2 corrections", withCorrections(note.text)]] as const) {
      const v = judgeCleanUp(recognized, cleaned);
      cells.push(`${kind}: -${v.dropped}/+${v.added} ${v.kept ? "kept" : "REFUSED"}`);
      if (!v.kept) refusedGood.push(`${note.id} (${kind}): ${v.reason}`);
    }
    for (const [kind, wrong] of Object.entries(WRONG)) {
      const v = judgeCleanUp(recognized, wrong(note));
      cells.push(`${kind}: -${v.dropped}/+${v.added} run ${Math.max(v.longestDrop, v.longestAdd)} ${v.kept ? "KEPT" : "refused"}`);
      if (v.kept) keptWrong.push(`${note.id} (${kind})`);
    }
    rows.push(`${note.id.padEnd(20)} ${String(wordsOf(note.text).length).padStart(3)} words | ${cells.join(" | ")}`);
  }
  console.log(rows.join("\n"));
  assert.deepEqual(refusedGood, [], "true clean-ups refused");
  assert.deepEqual(keptWrong, [], "wrong clean-ups kept");
});

test("fillers, a repeated word, punctuation and casing are free", () => {
  const v = judgeCleanUp("so um i i think we should ship it on friday", "So, I think we should ship it on Friday.");
  assert.equal(v.kept, true);
  assert.equal(v.dropped, 0);
  assert.equal(v.added, 0);
});

test("an empty answer to a note with words is refused; an empty note may stay empty", () => {
  assert.equal(judgeCleanUp("ship it on friday", "").reason, "it came back empty");
  assert.equal(judgeCleanUp("", "").kept, true);
});

test("a run of four new words is refused even in a long note", () => {
  const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");
  const v = judgeCleanUp(long, long.replace("word100", "word100 and then something else"));
  assert.equal(v.kept, false);
  assert.match(v.reason ?? "", /added 4 words you did not say/);
});

test("wordChanges lists each changed run, fillers and corrections, case and punctuation aside", () => {
  assert.deepEqual(wordChanges("so um i think their going to ship it", "So, I think they're going to ship it."), [
    { recognized: "um", cleaned: "" },
    { recognized: "their", cleaned: "they're" },
  ]);
  assert.deepEqual(wordChanges("ship it", "Ship it."), []);
});
