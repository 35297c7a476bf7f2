import { CircleAlert, CircleCheck, Download } from "lucide-react";
import { LocalTime } from "@/app/_ui/index.ts";
import type { WritingHealth } from "@/lib/writer/local/status.ts";
import styles from "./writing-setting.module.css";

// Settings → Writing's one line of state: what the writer's last tasks did, or how the model's
// download goes. The same sentence /api/health says (lib/writer/local/status.ts); its times here
// in the reader's own form.

const sentence = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}`;

/** What the writer's last tasks did ("Wrote your last 3 notes."), with a mark for how it went. */
export function WritingState({ writing }: { writing: WritingHealth }) {
  const failed = writing.last_tasks.state === "failed";
  return (
    <p className={styles.line} data-testid="writer-state" data-state={writing.last_tasks.state}>
      {failed ? <CircleAlert size={20} aria-hidden="true" className={styles.bad} /> : <CircleCheck size={20} aria-hidden="true" className={styles.ok} />}
      <span>{sentence(writing.says)}.</span>
    </p>
  );
}

const MB = (bytes: number) => `${Math.round(bytes / 1e6).toLocaleString("en")} MB`;

/** The model on this machine while it is on its way: how far, or why it waits and when it is tried again. */
export function LocalModelDownload({ writing }: { writing: WritingHealth }) {
  const download = writing.local_model.download;
  if (!download) return null;
  const waiting = download.state === "waiting";
  return (
    <p className={styles.line} data-testid="local-writer-state" data-state={download.state}>
      {waiting ? <CircleAlert size={20} aria-hidden="true" className={styles.bad} /> : <Download size={20} aria-hidden="true" />}
      <span>
        The writing model for this machine: {writing.says}
        {!waiting && download.total_bytes ? ` of ${MB(download.total_bytes)}` : ""}
        {waiting && download.failed_at && (
          <>
            ; tried at <LocalTime iso={download.failed_at} />
          </>
        )}
        {waiting && download.retry_at && (
          <>
            , next at <LocalTime iso={download.retry_at} />
          </>
        )}
        . {waiting ? "The rules write meanwhile." : "It writes once it has arrived."}
      </span>
    </p>
  );
}
