import type { Metadata } from "next";
import { CloudOff, FileText, Mic } from "lucide-react";
import { AppFrame } from "@/app/_components/shell/app-frame.tsx";
import { ButtonLink, EmptyState } from "@/app/_ui/index.ts";

export const metadata: Metadata = { title: "Offline" };

// Served by the service worker, under the address asked for, for a page it has never kept while
// there is no network: the app's frame with its tab bar and a way on, not a dead end.
export default function OfflinePage() {
  return (
    <AppFrame>
      <h1>You are offline</h1>
      <EmptyState icon={<CloudOff size={26} />} title="This page is not on this phone yet">
        It opens once you are back online. Notes and posts you have opened before are here, and you can record now: the note is kept on
        this phone and uploads when you are back online.
      </EmptyState>
      <div className="stack">
        <ButtonLink href="/record" size="large" block>
          <Mic size={20} aria-hidden="true" /> Record a note
        </ButtonLink>
        <ButtonLink href="/transcripts" variant="secondary" block>
          <FileText size={18} aria-hidden="true" /> Your notes
        </ButtonLink>
      </div>
    </AppFrame>
  );
}
