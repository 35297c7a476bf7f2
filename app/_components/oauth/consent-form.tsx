"use client";

import { Check } from "lucide-react";
import { useState } from "react";
import { Button, EmailAddress, Notice } from "@/app/_ui/index.ts";
import type { ConsentAnswer } from "@/lib/oauth/consent-answer.ts";
import styles from "./consent.module.css";

type Props = {
  uid: string;
  email: string;
  returnsTo: string | null;
  scopes: { scope: string; words: string }[];
  answer: (uid: string, allow: boolean) => Promise<ConsentAnswer>;
};

/** Allow or Deny an app's request; either way the browser goes back to the app. */
export function ConsentForm({ uid, email, returnsTo, scopes, answer }: Props) {
  const [busy, setBusy] = useState<"allow" | "deny" | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function decide(allow: boolean) {
    setBusy(allow ? "allow" : "deny");
    setError(null);
    try {
      const result = await answer(uid, allow);
      if (result.ok) {
        // A full navigation: the OAuth server's resume URL answers with a redirect to the app.
        // The buttons stay busy while the browser leaves, so a second tap sends nothing.
        window.location.assign(result.next);
        return;
      }
      setError(result.message);
    } catch {
      setError("Could not reach Voicedraft. Check your connection and try again.");
    }
    setBusy(null);
  }

  return (
    <div className="stack">
      <p className={styles.who}>
        Signed in as <EmailAddress email={email} />
      </p>
      <h2 className={styles.heading}>It will be able to</h2>
      {scopes.length ? (
        <ul className={styles.scopes} aria-label="What the app may do">
          {scopes.map(({ scope, words }) => (
            <li key={scope}>
              <Check size={18} aria-hidden="true" />
              <span>{words}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Nothing beyond knowing that you connected it.</p>
      )}
      <p className={`muted ${styles.small}`}>
        Disconnect it any time in Settings → Connected apps.
        {returnsTo && (
          <>
            {" "}
            You will go back to <strong>{returnsTo}</strong>.
          </>
        )}
      </p>
      {error && <Notice tone="danger">{error}</Notice>}
      <div className={styles.actions}>
        <Button variant="secondary" block disabled={busy !== null} onClick={() => decide(false)}>
          {busy === "deny" ? "Going back…" : "Deny"}
        </Button>
        <Button block disabled={busy !== null} onClick={() => decide(true)}>
          {busy === "allow" ? "Allowing…" : "Allow"}
        </Button>
      </div>
    </div>
  );
}
