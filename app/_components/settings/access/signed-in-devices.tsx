"use client";

import { Laptop, Smartphone } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiRequestError } from "@/app/_lib/api.ts";
import { listSignedInDevices, signOutDevice, type SignedInDevice } from "@/app/_lib/devices.ts";
import { useLoaded } from "@/app/_lib/use-loaded.ts";
import { Button, Card, LocalTime, Notice, Spinner } from "@/app/_ui/index.ts";
import { AddPhone } from "./add-phone.tsx";
import styles from "./access.module.css";

const PHONE = /Android|iPhone|iPad/;
const POLL_MS = 2000;

/** Settings → Add a phone, and the devices signed in to the account, each but this one with Sign out. */
export function Devices() {
  const { data, error, reload } = useLoaded(listSignedInDevices, (err) => (err instanceof ApiRequestError ? err.message : "Could not load your devices."));
  const [waiting, setWaiting] = useState(false);
  const [added, setAdded] = useState(false);
  // The devices there were when the code was shown: a paired one not among them is the new phone.
  const known = useRef<Set<string> | null>(null);
  const latest = useRef<SignedInDevice[] | null>(null);

  // While a pairing code is shown: look for the phone to sign in.
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void reload(), POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, reload]);
  useEffect(() => {
    latest.current = data;
    if (data && known.current && data.some((d) => d.paired && !known.current!.has(d.id))) setAdded(true);
  }, [data]);
  const onCode = useCallback(() => {
    known.current = new Set((latest.current ?? []).map((d) => d.id));
    setAdded(false);
  }, []);

  return (
    <>
      <h2 id="add-phone">Add a phone</h2>
      <Card>
        <AddPhone onWaiting={setWaiting} onCode={onCode} added={added} />
      </Card>
      <h2 id="devices">Signed-in devices</h2>
      <Card>
        {error && <Notice tone="danger">{error}</Notice>}
        {!data && !error && (
          <p className={styles.text}>
            <Spinner /> Loading your devices…
          </p>
        )}
        {data && (
          <ul className={styles.devices} aria-label="Signed-in devices">
            {data.map((device) => (
              <DeviceRow key={device.id} device={device} onSignedOut={() => void reload()} />
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}

function DeviceRow({ device, onSignedOut }: { device: SignedInDevice; onSignedOut: () => void }) {
  const [busy, setBusy] = useState(false);
  const name = device.device ?? "A browser";
  async function signOut() {
    if (!confirm(`Sign out ${name}? It will need to sign in again (or be added again) to reach your notes.`)) return;
    setBusy(true);
    try {
      await signOutDevice(device.id);
      onSignedOut();
    } finally {
      setBusy(false);
    }
  }
  return (
    <li className={styles.device} data-testid="signed-in-device" data-current={device.current || undefined}>
      {PHONE.test(name) ? <Smartphone size={22} aria-hidden="true" /> : <Laptop size={22} aria-hidden="true" />}
      <span className={styles.deviceText}>
        <span className={styles.deviceName}>{device.current ? `${name} (this device)` : name}</span>
        <span className={styles.deviceMeta}>
          {device.paired ? "Added with a code" : "Signed in"} <LocalTime iso={device.created_at} time={false} />
        </span>
      </span>
      {!device.current && (
        <Button variant="secondary" disabled={busy} onClick={() => void signOut()}>
          Sign out
        </Button>
      )}
    </li>
  );
}
