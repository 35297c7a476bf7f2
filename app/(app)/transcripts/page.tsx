import type { Metadata } from "next";
import { Mic } from "lucide-react";
import { TranscriptList } from "@/app/_components/notes/transcript-list.tsx";
import { UploadQueuePanel } from "@/app/_components/record/upload-queue-panel.tsx";
import { ButtonLink, PageHeader } from "@/app/_ui/index.ts";
import { seed } from "@/app/(app)/_seed.ts";
import { requireUser } from "@/lib/auth/current-user.ts";
import { listTags } from "@/lib/tags/list-tags.ts";
import { listNotes } from "@/lib/notes/list-notes.ts";
import { ListTranscriptionsQuery } from "@/lib/notes/schemas.ts";

export const metadata: Metadata = { title: "Notes" };

export default async function TranscriptsPage({ searchParams }: { searchParams: Promise<{ tag?: string | string[] }> }) {
  const [user, query] = await Promise.all([requireUser(), searchParams]);
  // ?tag= filters Notes (the chips above the list link to it); a tag that is not valid lists nothing.
  const parsed = ListTranscriptionsQuery.safeParse({ tag: typeof query.tag === "string" && query.tag ? query.tag : undefined });
  const tag = parsed.success ? (parsed.data.tag ?? null) : typeof query.tag === "string" ? query.tag : null;
  const first = parsed.success
    ? await seed(() => listNotes({ userId: user.id, input: parsed.data }))
    : { transcriptions: [], next_cursor: null };
  const tags = (await seed(() => listTags({ userId: user.id }))) ?? [];
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
      {/* A new list for another tag: its own first page and state. */}
      <TranscriptList key={tag ?? ""} initial={first} tag={tag} tags={tags} />
    </>
  );
}
