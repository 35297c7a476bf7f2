import type { Metadata } from "next";
import { TranscriptDetail } from "@/app/_components/note/transcript-detail.tsx";
import { seed } from "@/app/(app)/_seed.ts";
import { requireUser } from "@/lib/auth/current-user.ts";
import { getNote } from "@/lib/notes/get-note.ts";
import { recognizerQuality } from "@/lib/transcription/recognizers/recognizer-quality.ts";

export const metadata: Metadata = { title: "Note" };

export default async function TranscriptPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requireUser();
  // Not found (or not yours): the client says so, as it does for a note gone while offline.
  const initial = await seed(() => getNote({ userId: user.id, id }));
  return <TranscriptDetail id={id} initial={initial} recognizer={recognizerQuality()} />;
}
