"use client";

import Link from "next/link";
import { Check, CloudOff, TriangleAlert } from "lucide-react";
import { Card, ProgressBar, Spinner } from "@/app/_ui/index.ts";
import type { Stage } from "@/app/_lib/recording/recording-progress.ts";
import styles from "./recorder.module.css";

const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0)} MB`;
const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, "0")}`;

// The clean-up of the text (punctuation, paragraphs, your spellings) is not a step here: the note
// opens as soon as the words are in, and says there that it is tidying them up.
const STEPS = ["Saving", "Preparing", "Uploading", "Turning speech into text", "Opening your note"] as const;

function describe(stage: Stage): { step: number; title: string; detail?: string; value?: number | null } {
  switch (stage.kind) {
    case "saving":
      return { step: 0, title: "Saving the recording on this phone" };
    case "preparing":
      return {
        step: 1,
        title: stage.step === "loading" ? "Getting the audio tools ready" : stage.step === "splitting" ? "Splitting into parts" : "Preparing the audio",
        detail: stage.seconds > 0 ? `${clock(stage.seconds)} of audio done` : undefined,
        value: null,
      };
    case "waiting":
      return { step: 2, title: "Waiting to upload", detail: stage.error ?? undefined, value: null };
    case "uploading": {
      const part = stage.parts > 1 ? ` part ${stage.part} of ${stage.parts}` : "";
      return { step: 2, title: `Uploading${part}`, detail: stage.total ? `${mb(stage.loaded)} of ${mb(stage.total)}` : undefined, value: stage.total ? stage.loaded / stage.total : null };
    }
    case "transcribing":
      return {
        step: 3,
        title: stage.parts > 1 ? `Turning speech into text, part ${stage.part} of ${stage.parts}` : "Turning speech into text",
        detail: stage.parts > 1 && stage.part > 1 ? "The earlier parts are text already." : "This takes about as long as the recording.",
        value: null,
      };
    default:
      return { step: 4, title: "Your note is ready", detail: "Opening it…" };
  }
}

/** One card, in view right after Stop, that says what is happening now. */
export function ProgressCard({ stage }: { stage: Stage }) {
  if (stage.kind === "offline") {
    return (
      <Card role="status" data-testid="progress-card" data-stage="offline" className={styles.progressCard}>
        <p className={styles.progressTitle}>
          <CloudOff size={20} aria-hidden="true" /> Offline: saved on this phone
        </p>
        <p className="muted">It will upload when you are back online{stage.parts > 1 ? ` (${stage.parts} parts)` : ""}. You can close the app.</p>
      </Card>
    );
  }
  if (stage.kind === "failed") {
    return (
      <Card role="alert" data-testid="progress-card" data-stage="failed" className={styles.progressCard}>
        <p className={styles.progressTitle}>
          <TriangleAlert size={20} aria-hidden="true" /> This recording could not be turned into text
        </p>
        <p className="muted">{stage.message}</p>
      </Card>
    );
  }
  const { step, title, detail, value } = describe(stage);
  return (
    <Card role="status" aria-live="polite" data-testid="progress-card" data-stage={stage.kind} className={styles.progressCard}>
      <p className={styles.progressTitle}>
        {stage.kind === "done" ? <Check size={20} aria-hidden="true" /> : <Spinner />} {title}
      </p>
      {stage.kind !== "done" && <ProgressBar label={title} value={value} />}
      {stage.kind === "done" && (
        // Shown when the note did not open by itself (after an interruption, Record stays to offer "Continue recording").
        <Link href={stage.href} data-testid="open-note">
          Open the note
        </Link>
      )}
      {detail && <p className="muted">{detail}</p>}
      <ol className={styles.steps} aria-label="Steps">
        {STEPS.map((name, i) => (
          <li key={name} data-state={i < step ? "done" : i === step ? "now" : "next"}>
            {name}
          </li>
        ))}
      </ol>
    </Card>
  );
}
