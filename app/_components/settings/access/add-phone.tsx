"use client";

import { QrCode as QrIcon, Smartphone } from "lucide-react";
import { useEffect, useState } from "react";
import { ApiRequestError } from "@/app/_lib/api.ts";
import { createPairingCode, onlyOnThisComputer, type PairingCode } from "@/app/_lib/devices.ts";
import { SECURE_ADDRESS_HELP } from "@/app/_lib/secure-context.ts";
import { Button, LocalTime, Notice, QrCode } from "@/app/_ui/index.ts";
import styles from "./access.module.css";

// Settings → Add a phone: a QR code of this Voicedraft's address with a one-time code. The phone's
// camera opens it and the phone is signed in, no password typed there. While the code is shown,
// `onWaiting` lets the device list look for the phone (it says "Phone added" when it comes).

export function AddPhone({ onWaiting, onCode, added }: { onWaiting: (waiting: boolean) => void; onCode: () => void; added: boolean }) {
  const [pairing, setPairing] = useState<PairingCode | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; insecure: boolean } | null>(null);
  const [expired, setExpired] = useState(false);

  useEffect(() => {
    if (!pairing) return;
    const left = Date.parse(pairing.expires_at) - Date.now();
    const timer = setTimeout(() => setExpired(true), Math.max(0, left));
    return () => clearTimeout(timer);
  }, [pairing]);
  const waiting = pairing !== null && !expired && !added;
  useEffect(() => onWaiting(waiting), [waiting, onWaiting]);

  async function show() {
    setBusy(true);
    setError(null);
    setExpired(false);
    try {
      const made = await createPairingCode();
      onCode();
      setPairing(made);
    } catch (err) {
      const refused = err instanceof ApiRequestError;
      setError({ text: refused ? err.message : "Could not make a code. Try again.", insecure: refused && err.code === "secure_address_required" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={styles.section} data-testid="add-phone">
      <p className={styles.text}>Point your phone&apos;s camera at the code: the phone opens Voicedraft signed in to this account. No password to type.</p>
      {pairing && !expired && !added && (
        <>
          <QrCode value={pairing.url} label="QR code that signs your phone in" />
          <p className={styles.meta}>Or open {new URL(pairing.url).host}/pair on the phone and type</p>
          <p className={styles.code} data-testid="pairing-code">
            {pairing.code}
          </p>
          <p className={styles.meta}>
            Works once, until <LocalTime iso={pairing.expires_at} />.
          </p>
          {onlyOnThisComputer(pairing.url) && (
            <Notice tone="warning">
              This address works only on this computer. Set NEXTAUTH_URL to the address your phone opens. <a href={SECURE_ADDRESS_HELP}>How</a>
            </Notice>
          )}
        </>
      )}
      {added && (
        <Notice tone="success" role="status" icon={<Smartphone size={18} aria-hidden="true" />}>
          Phone added. It is signed in, and listed below.
        </Notice>
      )}
      {expired && !added && <Notice tone="neutral">That code has expired. Show a new one.</Notice>}
      {error && (
        <Notice tone={error.insecure ? "warning" : "danger"} role="alert">
          {error.insecure ? (
            <>
              A phone can be added only at a secure (https) address. <a href={SECURE_ADDRESS_HELP}>How to give Voicedraft one</a>
            </>
          ) : (
            error.text
          )}
        </Notice>
      )}
      {!waiting && (
        <Button variant={pairing ? "secondary" : "primary"} block disabled={busy} onClick={() => void show()}>
          <QrIcon size={18} aria-hidden="true" /> {busy ? "Making a code…" : pairing ? "Add another phone" : "Show a QR code"}
        </Button>
      )}
    </div>
  );
}
