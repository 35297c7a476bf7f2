import { randomUUID } from "node:crypto";
import { writerFor } from "@/lib/writer/providers.ts";
import { detectLanguage } from "@/lib/writer/note-language.ts";
import { groupCitations } from "@/lib/ask/citation-groups.ts";
import { streamWriterText } from "@/lib/writer/writer.ts";
import { answersPrompt } from "@/lib/writer/prompts/answers.ts";
import { citedNumbers, keepGivenMarkers, markerFilter, tidy } from "@/lib/ask/citation-markers.ts";
import { retrieve, type Ranked } from "@/lib/ask/retrieve.ts";
import { heavyTurns } from "@/lib/turns/heavy-turns.ts";
import type { AskAnswer, AskInput, Citation } from "@/lib/ask/schemas.ts";

// An answer to a question across a person's notes: the passages retrieval found, numbered in
// reading order (notes best first, each note's passages in the order spoken); then the writer
// answers from them alone, citing them, or, without a writer (or when it fails or cites nothing),
// the offline answer quotes them grouped by note. The same for JSON and for the event stream.

// Finding the passages reads and cuts up to twenty whole notes: a person's asks take turns, one at a
// time, the next resting as long as the last took (lib/turns/heavy-turns.ts).
const askTurns = heavyTurns("questions", { perPerson: 1, maxWaiting: 4, restFor: (elapsed) => elapsed });

export type AskListener = { citations?: (citations: Citation[]) => void; delta?: (text: string) => void };

/** m:ss (or h:mm:ss), as the app shows a time. */
export function clock(seconds: number): string {
  const s = Math.floor(seconds);
  const mmss = `${Math.floor((s % 3600) / 60)}:${String(s % 60).padStart(2, "0")}`;
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mmss.padStart(5, "0")}` : mmss;
}

/** The passages as numbered citations, in reading order. */
function numbered(ranked: Ranked[]): Citation[] {
  const noteOrder = [...new Set(ranked.map((r) => r.note.id))];
  const ordered = [...ranked].sort((a, b) => noteOrder.indexOf(a.note.id) - noteOrder.indexOf(b.note.id) || a.passage.order - b.passage.order);
  return ordered.map((r, i) => ({
    n: i + 1,
    note_id: r.note.id,
    note_title: r.note.title,
    quote: r.passage.text,
    start: r.passage.start,
    end: r.passage.end,
    recorded_at: r.note.recordedAt.toISOString(),
  }));
}

function offline(question: string, topic: string, citations: Citation[], reason: string | null): AskAnswer {
  if (!citations.length) {
    return { question, answer: `I found nothing in your notes about “${topic}”.`, answered_by: "offline", offline_reason: reason, found: false, citations: [], notes: [] };
  }
  const notes = groupCitations(citations);
  const byN = new Map(citations.map((c) => [c.n, c]));
  const parts = notes.map((note) => [note.note_title, ...note.citations.map((n) => `• “${byN.get(n)!.quote}” [${n}]`)].join("\n"));
  return { question, answer: [`Here is what you said about “${topic}”:`, ...parts].join("\n\n"), answered_by: "offline", offline_reason: reason, found: true, citations, notes };
}

/** Answers `input.question` from `userId`'s notes; `listen` receives the citations, then the answer's text as it is written. */
export async function askNotes({ userId, input, listen = {}, signal }: { userId: string; input: AskInput; listen?: AskListener; signal?: AbortSignal }): Promise<AskAnswer> {
  const { topic, ranked } = await askTurns(userId, () => retrieve(userId, input), signal);
  const citations = numbered(ranked);
  const sendOffline = (answer: AskAnswer, shown: boolean) => {
    if (!shown) listen.delta?.(answer.answer);
    return answer;
  };
  listen.citations?.(citations);
  if (!citations.length) return sendOffline(offline(input.question, topic, [], "nothing in your notes matched the question"), false);
  if (writerFor("answers") !== "model") return sendOffline(offline(input.question, topic, citations, "no writer is set up"), false);

  const given = new Set(citations.map((c) => c.n));
  const filter = markerFilter(given);
  let shown = false;
  const show = (text: string) => {
    if (!text) return;
    shown = true;
    listen.delta?.(text);
  };
  const { system, prompt } = answersPrompt({
    question: input.question,
    passages: citations.map((c) => ({ n: c.n, title: c.note_title, at: c.start === null ? null : clock(c.start), text: c.quote })),
  });
  // The answer passes the check every model output passes (lib/writer/check-output.ts): words of
  // the passages, in their language, no name or number they do not have (its [n] marks aside).
  const check = {
    what: "answer",
    sourceName: "your notes'",
    // It is told to write in the question's language (lib/writer/prompts/answers.ts).
    writeIn: detectLanguage(input.question),
    source: citations.map((c) => c.quote).join("\n"),
    given: [input.question, ...citations.flatMap((c) => [c.note_title, c.start === null ? "" : clock(c.start)])],
    parts: (answer: string) => [{ name: "answer", text: answer.replace(/\[\s*\d+(?:\s*[,–-]\s*\d+)*\s*\]/g, " "), required: true }],
  };
  const outcome = await streamWriterText({ system, prompt, signal, onDelta: (delta) => show(filter.push(delta)), task: "answers", key: `question:${randomUUID()}`, check });
  show(filter.flush());
  if (!outcome.ok && outcome.kind === "unusable") return sendOffline(offline(input.question, topic, citations, outcome.reason), shown);
  if (!outcome.ok) return sendOffline(offline(input.question, topic, citations, `the writer failed: ${outcome.reason}`), shown);
  const cited = citedNumbers(outcome.value, given);
  if (!cited.length) return sendOffline(offline(input.question, topic, citations, "the writer's answer cited none of your notes' passages"), shown);
  const kept = citations.filter((c) => cited.includes(c.n));
  return {
    question: input.question,
    answer: tidy(keepGivenMarkers(outcome.value, given)),
    answered_by: outcome.by,
    offline_reason: null,
    found: true,
    citations: kept,
    notes: groupCitations(kept),
  };
}
