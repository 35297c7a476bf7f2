"use client";

import type { LiveCaptions } from "@/app/_lib/recording/live-recording.ts";
import { useOnline } from "@/app/_lib/use-online.ts";
import { tidyCaption } from "@/lib/clean-up/rules-clean-up.ts";
import styles from "./recorder.module.css";

const CAPTION_CHARS = 120;

/**
 * The last words heard, as they come: the server's text for every piece recognized so far, tidied
 * as the note will be, then (muted) the words heard since, each phrase as soon as the person paused
 * after it: provisional, until their piece is recognized.
 */
export function LiveCaptionsView({ captions, off: offByServer }: { captions: LiveCaptions | null; off: string | null }) {
  // Offline, no captions can come (issue 69: it said "Listening…" for the whole recording).
  const online = useOnline();
  const off = offByServer ?? (online ? null : "Offline: captions come back with the connection.");
  const text = tidyCaption(captions?.text ?? "");
  let provisional = tidyCaption(captions?.provisional_text ?? "");
  // One sentence going on: the provisional words continue it.
  if (text && provisional && !/[.!?]$/.test(text) && !/^I\b/.test(provisional)) provisional = provisional[0].toLowerCase() + provisional.slice(1);
  // The newest lines only: a long note's captions must not push the controls off the screen.
  const all = [text, provisional].filter(Boolean).join(" ");
  const from = all.length > CAPTION_CHARS ? Math.max(0, all.indexOf(" ", all.length - CAPTION_CHARS)) : 0;
  const shownText = text.slice(Math.min(from, text.length)).trimStart();
  const shownProvisional = from > text.length ? provisional.slice(from - text.length - 1).trimStart() : provisional;
  const ellipsis = from > 0 ? "…" : "";
  const waiting = !off && !provisional && (!captions || captions.pieces.some((p) => p.text === null) || !text);
  return (
    <p className={styles.captions} data-testid="live-captions" aria-live="polite" aria-label="Live captions">
      <span className={styles.captionsText}>
        {shownText && <span>{ellipsis + shownText}</span>}
        {shownProvisional && (
          <span className={styles.captionsProvisional} data-testid="live-captions-provisional">
            {shownText ? " " : ellipsis}
            {shownProvisional}
          </span>
        )}
        {waiting && <span className={styles.captionsPending}>{text ? " …" : "Listening…"}</span>}
        {off && (
          <span className={styles.captionsPending} data-testid="captions-off">
            {all && " "}
            {off} Your recording goes on here; its note is made when you stop.
          </span>
        )}
      </span>
    </p>
  );
}
