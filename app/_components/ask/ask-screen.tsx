"use client";

import { MessageCircleQuestion, SearchX, Sparkles, TriangleAlert } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useAsk, type AskAnswer } from "@/app/_lib/ask/use-ask.ts";
import { Button, ButtonLink, Chip, EmptyState, Notice, Spinner } from "@/app/_ui/index.ts";
import { AnswerText, groupsOf, SourceGroups } from "@/app/_components/ask/ask-answer.tsx";
import styles from "./ask.module.css";

// Ask your notes: a question box, then the answer as it is written with its sources under it,
// each a card that opens the note and plays from the sentence. The question is in the URL
// (?q=), so Back from a cited note comes back to the answer.

const EXAMPLES = ["What did I say about pricing?", "What did I promise to do this week?", "Which ideas did I have for the launch?"];
const QUESTION_MAX = 500;

/** Who wrote the answer, in a line under it. */
function byline(answer: AskAnswer): string {
  if (answer.answered_by !== "offline") return "Written by your writer from these sentences only.";
  if (answer.offline_reason?.startsWith("no writer")) return "Your own sentences, best match first (no writer is set up to sum them up).";
  // The writer answered, but from none of these sentences: its answer is not shown, since nothing in it can be checked.
  if (answer.offline_reason?.includes("cited none")) return "Your own sentences, best match first (the writer's answer named none of them, so it is left out).";
  return "Your own sentences: the writer could not answer just now.";
}

export function AskScreen({ initialQuestion }: { initialQuestion: string }) {
  const { state, ask } = useAsk();
  const [question, setQuestion] = useState(initialQuestion);
  const input = useRef<HTMLInputElement>(null);
  const asked = useRef(false);

  const submit = (text: string) => {
    const q = text.trim();
    if (!q) return input.current?.focus();
    setQuestion(q);
    input.current?.blur(); // the keyboard goes, the answer gets the screen
    window.history.replaceState(window.history.state, "", `/ask?q=${encodeURIComponent(q)}`);
    void ask(q);
  };
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    // The address bar's ?q=, not only the page's: Back restores the page as first rendered (before
    // the question was put in the URL), with the URL as it was left.
    const q = new URLSearchParams(window.location.search).get("q")?.slice(0, QUESTION_MAX) || initialQuestion;
    if (!q) return;
    // Showing the question being answered is the point of this effect.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setQuestion(q);
    void ask(q);
  }, [ask, initialQuestion]);

  return (
    <div className={styles.screen}>
      <form
        className={styles.form}
        onSubmit={(e) => {
          e.preventDefault();
          submit(question);
        }}
      >
        <label htmlFor="ask-question" className="visually-hidden">
          Your question
        </label>
        <input
          id="ask-question"
          ref={input}
          type="text"
          className={styles.input}
          placeholder="Ask about your notes"
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          maxLength={QUESTION_MAX}
          enterKeyHint="send"
          autoComplete="off"
          data-testid="ask-input"
        />
        <Button type="submit" disabled={state.status === "asking"}>
          <Sparkles size={18} aria-hidden="true" /> Ask
        </Button>
      </form>

      {state.status === "idle" && (
        <EmptyState icon={<MessageCircleQuestion size={26} />} title="Ask what you said">
          Answers come from your own notes, with the moment you said it. Try:
        </EmptyState>
      )}
      {state.status === "idle" && (
        <ul className={styles.examples} aria-label="Example questions">
          {EXAMPLES.map((example) => (
            <li key={example}>
              <Chip onClick={() => submit(example)}>{example}</Chip>
            </li>
          ))}
        </ul>
      )}

      {state.status === "asking" && (
        <section className={styles.answer} aria-live="polite" aria-busy="true">
          {state.text ? (
            <AnswerText text={state.text} writing />
          ) : (
            <p className={styles.waiting}>
              <Spinner /> Looking through your notes…
            </p>
          )}
          {state.citations.length > 0 && <SourceGroups notes={groupsOf(state.citations)} citations={state.citations} />}
        </section>
      )}

      {state.status === "done" && !state.answer.found && (
        <EmptyState
          icon={<SearchX size={26} />}
          title={state.answer.answer}
          action={
            <ButtonLink href="/transcripts" variant="secondary">
              Search your notes
            </ButtonLink>
          }
        >
          Try other words: the answer comes from the words you said.
        </EmptyState>
      )}

      {state.status === "done" && state.answer.found && (
        <section className={styles.answer} aria-live="polite" data-answered-by={state.answer.answered_by}>
          {state.answer.answered_by !== "offline" ? (
            <>
              <AnswerText text={state.answer.answer} />
              <h2 className={styles.sourcesTitle}>From your notes</h2>
            </>
          ) : (
            <p className={styles.lead} data-testid="ask-answer">
              {state.answer.answer.split("\n")[0]}
            </p>
          )}
          <SourceGroups notes={state.answer.notes} citations={state.answer.citations} />
          <p className={styles.byline} data-testid="ask-byline">
            {byline(state.answer)}
          </p>
        </section>
      )}

      {state.status === "error" && (
        <Notice tone="danger" icon={<TriangleAlert size={18} aria-hidden="true" />} role="alert">
          {state.message}{" "}
          <Button variant="secondary" onClick={() => void ask(state.question)}>
            Try again
          </Button>
        </Notice>
      )}
    </div>
  );
}
