"use client";

import { Check, FileText } from "lucide-react";
import type { FormEvent, ReactNode } from "react";
import type { Delivery } from "@/app/_lib/posts/content.ts";
import { Button, Field, LocalTime, Notice, Sheet } from "@/app/_ui/index.ts";
import styles from "./posts.module.css";

// The parts of a post's sheets: a row of its menu, what happened to it (its share evidence), and
// "Did you post it?": the person's word that it is live, with its link if they give one.

const HISTORY: Record<string, string> = {
  "share:initiated": "Share sheet opened",
  "share:presented": "Shared",
  "share:cancelled": "Sharing cancelled",
  "share:failed": "Sharing did not work",
  "copy:presented": "Copied",
  "copy:failed": "Copying did not work",
  "export:presented": "Saved as a file",
  "manual:confirmed_manual": "You said it is posted",
};

export const shortUrl = (url: string) => url.replace(/^https?:\/\/(www\.)?/, "").replace(/\/$/, "");

/** The post's history in its menu: each share, copy, file or confirmation, and when. */
export function VariantHistory({ deliveries, contentHash }: { deliveries: Delivery[]; contentHash: string }) {
  return (
    <>
      <h3 className={styles.historyTitle}>
        <FileText size={18} aria-hidden="true" /> History
      </h3>
      {deliveries.length ? (
        <ul className={styles.history} data-testid="deliveries">
          {deliveries.map((d) => (
            <li key={d.id}>
              <span>
                {HISTORY[`${d.method}:${d.state}`] ?? "Shared"}
                {d.published_url && ` — ${shortUrl(d.published_url)}`}
                {d.content_hash !== contentHash && " (an earlier text)"}
              </span>
              <LocalTime iso={d.created_at} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Not shared yet.</p>
      )}
    </>
  );
}

/** "Did you post it?": Voicedraft cannot see the account, so the person says so (with the link, if they like). */
export function PostedSheet(props: {
  open: boolean;
  onClose: () => void;
  id: string;
  platform: string;
  publishedUrl: string;
  error: string | null;
  working: boolean;
  onConfirm: (event: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <Sheet open={props.open} onClose={props.onClose} title="Did you post it?">
      <form className="stack" onSubmit={props.onConfirm} aria-label="Confirm it is posted">
        <p className="muted">Voicedraft cannot see your {props.platform} account, so tell it once this text is live.</p>
        <Field id={`url-${props.id}`} name="published_url" label="Link to the post (optional)" type="url" inputMode="url" placeholder="https://" defaultValue={props.publishedUrl} />
        {props.error && <Notice tone="danger">{props.error}</Notice>}
        <Button type="submit" size="large" block disabled={props.working}>
          <Check size={20} aria-hidden="true" /> Yes, it is posted
        </Button>
        <Button variant="ghost" block onClick={props.onClose}>
          Not yet
        </Button>
      </form>
    </Sheet>
  );
}

/** One row of a post's menu. */
export function MenuItem({ icon, onClick, children }: { icon: ReactNode; onClick: () => void; children: ReactNode }) {
  return (
    <li>
      <button type="button" className={styles.menuItem} onClick={onClick}>
        <span aria-hidden="true">{icon}</span>
        {children}
      </button>
    </li>
  );
}
