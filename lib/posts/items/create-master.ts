import { canonicalTitle, contentHash } from "@/lib/posts/items/content-hash.ts";
import { presentItem } from "@/lib/posts/items/present-item.ts";
import { noteTextHash, sourceTextOf } from "@/lib/posts/items/source-note.ts";
import { getOwnedNote } from "@/lib/notes/store/owned-note.ts";
import { createPost } from "@/lib/posts/store/post-writes.ts";
import { TITLE_MAX, type ContentItem, type CreateMasterInput, type SourceTextKind } from "@/lib/posts/schemas.ts";

const DEFAULT_TITLE_CHARS = 80;

function titleFrom(body: string): string {
  const firstLine = body.split("\n").find((line) => line.trim())?.trim() ?? "";
  const chars = Array.from(firstLine.replace(/\p{Cc}/gu, ""));
  if (!chars.length) return "Untitled";
  return chars.length > DEFAULT_TITLE_CHARS ? `${chars.slice(0, DEFAULT_TITLE_CHARS - 1).join("").trimEnd()}…` : chars.join("");
}

/**
 * The note's own title, as its list and page show it: the one the person gave it, else its
 * insights' (a few words naming it); null when it has neither. Read from the stored insights
 * without lib/insights, which builds on this domain.
 */
export function noteTitleOf(transcription: { title: string | null; insights: unknown }): string | null {
  const written = (transcription.insights as { title?: unknown } | null)?.title;
  const title = transcription.title ?? (typeof written === "string" ? written : null);
  const line = title === null ? "" : canonicalTitle(title.replace(/\p{Cc}+/gu, " "));
  return line ? Array.from(line).slice(0, TITLE_MAX).join("") : null;
}

/** A new master, from a body, one of the user's transcriptions, or both. */
export async function createMaster({ userId, input }: { userId: string; input: CreateMasterInput }): Promise<ContentItem> {
  let body = input.body;
  let sourceTextKind: SourceTextKind | null = null;
  let sourceNoteHash: string | null = null;
  let transcriptionUpdatedAt: Date | null = null;
  let sourceTitle: string | null = null;
  if (input.source_transcription_id !== undefined) {
    const transcription = await getOwnedNote({ userId, id: input.source_transcription_id });
    transcriptionUpdatedAt = transcription.updatedAt;
    sourceTitle = noteTitleOf(transcription);
    if (body === undefined) {
      const source = sourceTextOf(transcription);
      body = source.text;
      sourceTextKind = source.kind;
      sourceNoteHash = noteTextHash(source.text);
    }
  }
  body ??= "";
  // The note's title where it has one: its first words said nothing the title did not (issue 44).
  const title = input.title ?? sourceTitle ?? titleFrom(body);
  const row = await createPost({
    userId,
    kind: "master",
    title,
    body,
    contentHash: contentHash(title, body),
    sourceTranscriptionId: input.source_transcription_id ?? null,
    sourceTextKind,
    sourceNoteHash,
  });
  return presentItem(row, { note: sourceNoteHash ? { outdated: false, noteUpdatedAt: transcriptionUpdatedAt! } : null });
}
