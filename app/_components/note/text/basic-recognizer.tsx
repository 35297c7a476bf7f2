import Link from "next/link";
import { AudioLines, Info } from "lucide-react";
import type { Transcription } from "@/app/_lib/api.ts";
import type { RecognizerQuality } from "@/lib/transcription/recognizers/recognizer-quality.ts";
import { Button } from "@/app/_ui/index.ts";
import styles from "../note.module.css";

// A note heard by the basic recognizer (PocketSphinx) says so where it is read, from the start (also
// while the whole recording is heard again: the person reads the note meanwhile), in a line or two:
// the next step only where there is one to take or wait for. Once the accurate recognizer has
// arrived, a note whose recording was kept (and that the person has not rewritten) offers to be
// heard again by it: the server's second pass, which the person can undo (the note's ⋯ menu, and
// the toast when it lands). A note the person edited is theirs: the line says only why it is not
// heard again, when it could otherwise be (issue 69 item 10).

/** The next step for new notes, where there is one: the accurate recognizer on its way. */
function next({ quality, model_download: download }: RecognizerQuality): string | null {
  if (quality === "accurate") return "The accurate recognizer has arrived since: new notes use it.";
  if (download?.state === "downloading") return `The accurate recognizer is downloading${download.percent === null ? "" : ` (${download.percent} %)`}.`;
  return null;
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
  if (note.engine !== "pocketsphinx" || !recognizer) return null;
  if (note.edited_at) {
    if (recognizer.quality !== "accurate" || !note.audio) return null;
    return (
      <p className={styles.basicEngine} role="note" data-testid="basic-recognizer">
        <Info size={16} aria-hidden="true" />
        <span>You edited this note, so it is not heard again: your words stay.</span>
      </p>
    );
  }
  const offer = onHearAgain && canHearAgain(note, recognizer);
  const then = offer ? "The accurate recognizer has arrived since: it can hear this recording again." : note.text_improving ? null : next(recognizer);
  return (
    <div className={styles.basicEngine} role="note" data-testid="basic-recognizer">
      <Info size={16} aria-hidden="true" />
      <div>
        <span>
          Heard by the basic recognizer: some words may be off.{then && ` ${then}`}{" "}
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
