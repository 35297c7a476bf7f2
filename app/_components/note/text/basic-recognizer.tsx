import Link from "next/link";
import { Info } from "lucide-react";
import type { Transcription } from "@/app/_lib/api.ts";
import type { RecognizerQuality } from "@/lib/transcription/recognizers/recognizer-quality.ts";
import styles from "../note.module.css";

// A note heard by the basic recognizer (PocketSphinx) says so where it is read, and what happens
// next (issue 57: the only word of it was in Settings). One line, with Settings' Transcription.

/** What comes next for new notes, from the recognizer this server has now. */
function next({ quality, model_download: download }: RecognizerQuality): string {
  if (quality === "accurate") return "The accurate recognizer has arrived since: new notes use it.";
  if (download?.state === "downloading") return `The accurate recognizer is downloading${download.percent === null ? "" : ` (${download.percent} %)`}: new notes will use it.`;
  if (download?.state === "waiting") return "The accurate recognizer could not be downloaded yet; it is tried again later.";
  return "The accurate recognizer is not set up on this server.";
}

export function BasicRecognizerLine({ note, recognizer }: { note: Transcription; recognizer?: RecognizerQuality }) {
  if (note.engine !== "pocketsphinx" || !recognizer) return null;
  return (
    <p className={styles.basicEngine} role="note" data-testid="basic-recognizer">
      <Info size={16} aria-hidden="true" />
      <span>
        Heard by the basic recognizer, so some words may be off. {next(recognizer)} <Link className={styles.basicEngineLink} href="/settings#transcription">
          Transcription settings
        </Link>
      </span>
    </p>
  );
}
