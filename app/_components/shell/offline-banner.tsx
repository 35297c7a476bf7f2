"use client";

import { CloudOff } from "lucide-react";
import { useSyncExternalStore } from "react";
import { Notice } from "@/app/_ui/index.ts";
import styles from "./shell.module.css";

const subscribe = (onChange: () => void) => {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
};

/** Shown on every signed-in page while the device has no network. */
export function OfflineBanner() {
  const online = useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
  if (online) return null;
  return (
    <div className={styles.banner}>
      <Notice tone="warning" icon={<CloudOff size={18} aria-hidden="true" />} data-testid="offline-banner">
        You are offline. What you have opened before is still here; recordings are kept on this phone.
      </Notice>
    </div>
  );
}
