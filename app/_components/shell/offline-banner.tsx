"use client";

import { CloudOff } from "lucide-react";
import { Notice } from "@/app/_ui/index.ts";
import { useOnline } from "@/app/_lib/use-online.ts";
import styles from "./shell.module.css";

/** Shown on every signed-in page while the device has no network. */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <div className={styles.banner}>
      <Notice tone="warning" icon={<CloudOff size={18} aria-hidden="true" />} data-testid="offline-banner">
        You are offline. What you have opened before is still here; recordings are kept on this phone.
      </Notice>
    </div>
  );
}
