import type { Metadata } from "next";
import { CloudOff, FileText, Mic, Settings } from "lucide-react";
import { Brand } from "@/app/_components/shell/brand.tsx";
import { ButtonLink, EmptyState } from "@/app/_ui/index.ts";
import styles from "@/app/_components/auth-page.module.css";

export const metadata: Metadata = { title: "Offline" };

// Served by the service worker for pages it has never cached while there is no network: the
// app's frame with a way on, not a dead end.
export default function OfflinePage() {
  return (
    <div className={`vd ${styles.page}`}>
      <header className={styles.header}>
        <Brand href="/record" />
      </header>
      <main className={styles.main}>
        <h1>You are offline</h1>
        <EmptyState icon={<CloudOff size={26} />} title="This page is not on this phone yet">
          Pages you have opened before still work. You can record now: the note is kept here and uploads when you are back online.
        </EmptyState>
        <div className="stack">
          <ButtonLink href="/record" size="large" block>
            <Mic size={20} aria-hidden="true" /> Record a note
          </ButtonLink>
          <ButtonLink href="/transcripts" variant="secondary" block>
            <FileText size={18} aria-hidden="true" /> Notes
          </ButtonLink>
          <ButtonLink href="/settings" variant="secondary" block>
            <Settings size={18} aria-hidden="true" /> Settings
          </ButtonLink>
        </div>
      </main>
    </div>
  );
}
