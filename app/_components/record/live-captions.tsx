"use client";

import type { LiveCaptions } from "@/app/_lib/recording/live-recording.ts";
import { tidyCaption } from "@/lib/optimizer/local-optimizer.ts";
import styles from "./recorder.module.css";

const CAPTION_CHARS = 120;

/** The last words heard, as they come: the server's text for every piece recognized so far, tidied as the note will be. */
export function LiveCaptionsView({ captions, off }: { captions: LiveCaptions | null; off: string | null }) {
  const text = tidyCaption(captions?.text ?? "");
  // The newest lines only: a long note's captions must not push the controls off the screen.
  const shown = text.length > CAPTION_CHARS ? `…${text.slice(text.indexOf(" ", text.length - CAPTION_CHARS))}` : text;
  const waiting = !off && (!captions || captions.pieces.some((p) => p.text === null) || !text);
  return (
    <p className={styles.captions} data-testid="live-captions" aria-live="polite" aria-label="Live captions">
      <span className={styles.captionsText}>
        {shown && <span>{shown}</span>}
        {waiting && <span className={styles.captionsPending}>{text ? " …" : "Listening…"}</span>}
        {off && (
          <span className={styles.captionsPending} data-testid="captions-off">
            {shown && " "}
            {off} Your recording goes on here; its note is made when you stop.
          </span>
        )}
      </span>
    </p>
  );
}
