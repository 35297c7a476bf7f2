"use client";

import { Download, Share } from "lucide-react";
import { promptInstall, useInstallWay } from "@/app/_lib/install-prompt.ts";
import { Button, Card } from "@/app/_ui/index.ts";
import styles from "./install-app.module.css";

/** Settings → This phone: install on the home screen, the browser's own way; nothing when there is none. */
export function InstallApp() {
  const way = useInstallWay();
  if (way === "prompt") {
    return (
      <Card className={styles.install} data-testid="install-app">
        <p className={styles.text}>Open Voicedraft from your home screen, like an app, and record in one tap.</p>
        <Button variant="secondary" block onClick={() => void promptInstall()}>
          <Download size={18} aria-hidden="true" /> Install on this phone
        </Button>
      </Card>
    );
  }
  if (way === "apple") {
    return (
      <Card className={styles.install} data-testid="install-app">
        <p className={styles.text}>
          To open Voicedraft like an app: tap Share <Share size={14} aria-hidden="true" /> in the browser, then Add to Home Screen.
        </p>
      </Card>
    );
  }
  return null;
}
