import Link from "next/link";
import { groupCitations } from "@/lib/ask/citation-groups.ts";
import { Play } from "lucide-react";
import type { AskAnswer, Citation } from "@/app/_lib/ask/use-ask.ts";
import { duration as clock } from "@/app/_lib/notes/note-text.ts";
import { LocalTime } from "@/app/_ui/index.ts";
import styles from "./ask.module.css";

// The answer and its sources: the text with its [n] markers as small numbered marks, and the
// sources grouped by note, each a card with the same number that opens the note and plays from
// the sentence. (A mark is not a link: a 20 px target in running text is too small to tap.)

/** Where a citation opens: its note, played from the quoted sentence (a note without times opens at the top). */
const noteHref = (c: Citation) => `/transcripts/${c.note_id}${c.start === null ? "" : `?t=${c.start}`}`;

/** The answer's text, each [n] a small numbered mark matching its source card (the card is what is tapped). */
export function AnswerText({ text, writing = false }: { text: string; writing?: boolean }) {
  return (
    <p className={`${styles.answerText} ${writing ? styles.writing : ""}`} data-testid="ask-answer">
      {/* A marker stays on the line of the word it follows. */}
      {text.replace(/[ \t]+(?=\[\d+\])/g, "\u00a0").split(/(\[\d+\])/g).map((part, i) => {
        const n = part.match(/^\[(\d+)\]$/)?.[1];
        return n ? (
          <span key={i} className={styles.marker}>
            <span className="visually-hidden">(source </span>
            {n}
            <span className="visually-hidden">)</span>
          </span>
        ) : (
          part
        );
      })}
    </p>
  );
}

export function CitationCard({ citation }: { citation: Citation }) {
  return (
    <li>
      <Link href={noteHref(citation)} className={styles.source} prefetch={false} data-testid="ask-citation">
        <span className={styles.sourceNumber} aria-hidden="true">
          {citation.n}
        </span>
        <q className={styles.quote}>{citation.quote}</q>
        {citation.start !== null ? (
          <span className={styles.time}>
            <Play size={14} aria-hidden="true" />
            <span className="visually-hidden">Play from </span>
            {clock(citation.start)}
          </span>
        ) : (
          <span className={styles.time}>Open</span>
        )}
      </Link>
    </li>
  );
}

/** The cited notes, each its title and date over its sentences' cards. */
export function SourceGroups({ notes, citations }: { notes: AskAnswer["notes"]; citations: Citation[] }) {
  const byN = new Map(citations.map((c) => [c.n, c]));
  return (
    <div className={styles.groups}>
      {notes.map((note) => {
        const cited = note.citations.map((n) => byN.get(n)).filter((c): c is Citation => c !== undefined);
        if (!cited.length) return null;
        return (
          <section key={note.note_id} className={styles.group} aria-label={note.note_title}>
            <h3 className={styles.groupTitle}>
              <span>{note.note_title}</span>
              <span className={styles.groupDate}>
                <LocalTime iso={cited[0].recorded_at} time={false} />
              </span>
            </h3>
            <ul className={styles.sources}>
              {cited.map((c) => (
                <CitationCard key={c.n} citation={c} />
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

/** Citations streamed before the answer is done: grouped by note in the order given. */
export const groupsOf = (citations: Citation[]): AskAnswer["notes"] => groupCitations(citations);
