import type { Metadata } from "next";
import { Mic } from "lucide-react";
import { TranscriptList } from "@/app/_components/notes/transcript-list.tsx";
import { UploadQueuePanel } from "@/app/_components/record/upload-queue-panel.tsx";
import { ButtonLink, PageHeader } from "@/app/_ui/index.ts";
import { seed } from "@/app/(app)/_seed.ts";
import { requireUser } from "@/lib/auth/current-user.ts";
import { listTranscriptions } from "@/lib/transcription/transcripts/list-transcriptions.ts";
import { ListTranscriptionsQuery } from "@/lib/transcription/schemas.ts";

export const metadata: Metadata = { title: "Notes" };

export default async function TranscriptsPage() {
  const user = await requireUser();
  const first = await seed(() => listTranscriptions({ userId: user.id, input: ListTranscriptionsQuery.parse({ limit: 20 }) }));
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
      <UploadQueuePanel owner={user.id} waitingOnly />
      <TranscriptList initial={first} />
    </>
  );
}
