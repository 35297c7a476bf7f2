import type { Metadata } from "next";
import Link from "next/link";
import { ContentFamilyView } from "@/app/_components/posts/content-family.tsx";
import type { DraftSource } from "@/app/_lib/posts/family-draft.ts";
import { noteTitle, titleOf } from "@/app/_lib/notes/note-text.ts";
import { seed } from "@/app/(app)/_seed.ts";
import { Notice } from "@/app/_ui/index.ts";
import { requireUser } from "@/lib/auth/current-user.ts";
import { listChannels } from "@/lib/channels/channel-store.ts";
import { listPresets } from "@/lib/presets/preset-store.ts";
import { getRecording } from "@/lib/notes/get-recording.ts";
import { getNote } from "@/lib/notes/get-note.ts";
import { presentedTextOf } from "@/lib/notes/store/shown-text.ts";

export const metadata: Metadata = { title: "Make posts" };

// "Make posts" from a note (?note=<id>) or a recording in parts (?recording=<id>): the page of
// posts not written yet. Nothing is stored until the person writes posts.
export default async function NewPostsPage({ searchParams }: { searchParams: Promise<{ note?: string; recording?: string }> }) {
  const { note, recording } = await searchParams;
  const user = await requireUser();
  const [draft, channels, presets] = await Promise.all([
    seed(() => draftFrom(user.id, { note, recording })),
    seed(() => listChannels({ userId: user.id })),
    seed(() => listPresets({ userId: user.id })),
  ]);
  if (!draft) {
    return (
      <Notice tone="danger" role="alert">
        This note was not found. <Link href="/transcripts">Back to Notes</Link>
      </Notice>
    );
  }
  return <ContentFamilyView id="" draft={draft} initial={{ channels, presets }} />;
}

async function draftFrom(userId: string, { note, recording }: { note?: string; recording?: string }): Promise<DraftSource> {
  if (note) {
    const t = await getNote({ userId, id: note });
    const { text: body, kind } = presentedTextOf(t);
    // The note's title as its page shows it (yours, else its insights'); its first words only without one.
    return { input: { source_transcription_id: t.id }, title: titleOf(t, body), body, kind };
  }
  if (!recording) throw new Error("no source");
  const joined = await getRecording({ userId, recordingId: recording });
  const { text: body } = presentedTextOf(joined);
  return { input: { body }, title: noteTitle(body), body, kind: null };
}
