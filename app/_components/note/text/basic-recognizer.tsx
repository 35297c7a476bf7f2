import Link from "next/link";
import { AudioLines, Info } from "lucide-react";
import type { Transcription } from "@/app/_lib/api.ts";
import type { RecognizerQuality } from "@/lib/transcription/recognizers/recognizer-quality.ts";
import { Button } from "@/app/_ui/index.ts";
import styles from "../note.module.css";

// A note heard by the basic recognizer (PocketSphinx) says so where it is read, and what happens
// next (issue 57: the only word of it was in Settings). One line, with Settings' Transcription.
// Once the accurate recognizer has arrived, a note whose recording was kept (and that the person
// has not rewritten) offers to be heard again by it: the server's second pass, which the person
// can undo (the note's ⋯ menu, and the toast when it lands).

/** What comes next for new notes, from the recognizer this server has now. */
function next({ quality, model_download: download }: RecognizerQuality): string {
  if (quality === "accurate") return "The accurate recognizer has arrived since: new notes use it.";
  if (download?.state === "downloading") return `The accurate recognizer is downloading${download.percent === null ? "" : ` (${download.percent} %)`}: new notes will use it.`;
  if (download?.state === "waiting") return "The accurate recognizer could not be downloaded yet; it is tried again later.";
  return "The accurate recognizer is not set up on this server.";
}

/** Whether this note can be heard again by the accurate recognizer now (the server says the same, or why not). */
export const canHearAgain = (note: Transcription, recognizer?: RecognizerQuality) =>
  note.engine === "pocketsphinx" && recognizer?.quality === "accurate" && Boolean(note.audio) && !note.edited_at && !note.text_improving;

export function BasicRecognizerLine({
  note,
  recognizer,
  onHearAgain,
  busy = false,
}: {
  note: Transcription;
  recognizer?: RecognizerQuality;
  /** Offered when the note can be heard again (null: offline, nothing is offered). */
  onHearAgain: (() => void) | null;
  busy?: boolean;
}) {
  if (note.engine !== "pocketsphinx" || !recognizer || note.text_improving) return null;
  const offer = onHearAgain && canHearAgain(note, recognizer);
  return (
    <div className={styles.basicEngine} role="note" data-testid="basic-recognizer">
      <Info size={16} aria-hidden="true" />
      <div>
        <span>
          Heard by the basic recognizer, so some words may be off.{" "}
          {offer ? "The accurate recognizer has arrived since: it can hear this recording again." : next(recognizer)}{" "}
          {!offer && (
            <Link className={styles.basicEngineLink} href="/settings#transcription">
              Transcription settings
            </Link>
          )}
        </span>
        {offer && (
          <Button variant="secondary" className={styles.hearAgain} onClick={onHearAgain} disabled={busy}>
            <AudioLines size={18} aria-hidden="true" />
            {busy ? "Starting…" : "Hear it again"}
          </Button>
        )}
      </div>
    </div>
  );
}
