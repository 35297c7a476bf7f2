import type { Metadata } from "next";
import { Mic } from "lucide-react";
import { TranscriptList } from "@/app/_components/transcript-list.tsx";
import { ButtonLink, PageHeader } from "@/app/_ui/index.ts";

export const metadata: Metadata = { title: "Notes" };

export default function TranscriptsPage() {
  return (
    <>
      <PageHeader
        title="Notes"
        action={
          <ButtonLink href="/record" variant="secondary">
            <Mic size={18} aria-hidden="true" /> Record
          </ButtonLink>
        }
      />
      <TranscriptList />
    </>
  );
}
