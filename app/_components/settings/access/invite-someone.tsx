"use client";

import { Copy, UserPlus } from "lucide-react";
import { useState } from "react";
import { ApiRequestError } from "@/app/_lib/api.ts";
import { createInvitation, type Invitation } from "@/app/_lib/devices.ts";
import { Button, LocalTime, Notice, QrCode } from "@/app/_ui/index.ts";
import styles from "./access.module.css";

// Settings → Invite someone (the owner only): a link that makes one account within 7 days, with its
// QR code, to send or to show.

export function InviteSomeone() {
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  async function make() {
    setBusy(true);
    setError(null);
    setCopied(false);
    try {
      setInvitation(await createInvitation());
    } catch (err) {
      setError(err instanceof ApiRequestError ? err.message : "Could not make an invitation. Try again.");
    } finally {
      setBusy(false);
    }
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setError("Could not copy here: press on the link to select it.");
    }
  }

  return (
    <div className={styles.section} data-testid="invite-someone">
      <p className={styles.text}>People sign up here only with your invitation. Each link makes one account, within 7 days.</p>
      {invitation && (
        <>
          <QrCode value={invitation.url} label="QR code of the invitation link" />
          <p className={styles.link} data-testid="invitation-link">
            {invitation.url}
          </p>
          <p className={styles.meta}>
            Works once, until <LocalTime iso={invitation.expires_at} />.
          </p>
          <Button variant="secondary" block onClick={() => void copy(invitation.url)}>
            <Copy size={18} aria-hidden="true" /> {copied ? "Copied" : "Copy link"}
          </Button>
        </>
      )}
      {error && (
        <Notice tone="danger" role="alert">
          {error}
        </Notice>
      )}
      <Button variant={invitation ? "secondary" : "primary"} block disabled={busy} onClick={() => void make()}>
        <UserPlus size={18} aria-hidden="true" /> {busy ? "Making a link…" : invitation ? "Make another link" : "Make an invitation link"}
      </Button>
    </div>
  );
}
