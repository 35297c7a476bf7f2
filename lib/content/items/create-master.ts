import { db } from "@/lib/db/client.ts";
import { notFound } from "@/lib/http/errors.ts";
import { contentHash } from "@/lib/content/items/content-hash.ts";
import { presentItem } from "@/lib/content/items/present-item.ts";
import { noteTextHash, sourceTextOf } from "@/lib/content/items/source-note.ts";
import type { ContentItem, CreateMasterInput, SourceTextKind } from "@/lib/content/schemas.ts";

const DEFAULT_TITLE_CHARS = 80;

function titleFrom(body: string): string {
  const firstLine = body.split("\n").find((line) => line.trim())?.trim() ?? "";
  const chars = Array.from(firstLine.replace(/\p{Cc}/gu, ""));
  if (!chars.length) return "Untitled";
  return chars.length > DEFAULT_TITLE_CHARS ? `${chars.slice(0, DEFAULT_TITLE_CHARS - 1).join("").trimEnd()}…` : chars.join("");
}

/** A new master, from a body, one of the user's transcriptions, or both. */
export async function createMaster({ userId, input }: { userId: string; input: CreateMasterInput }): Promise<ContentItem> {
  const prisma = await db();
  let body = input.body;
  let sourceTextKind: SourceTextKind | null = null;
  let sourceNoteHash: string | null = null;
  let transcriptionUpdatedAt: Date | null = null;
  if (input.source_transcription_id !== undefined) {
    const transcription = await prisma.transcription.findFirst({
      where: { id: input.source_transcription_id, userId },
      include: { optimization: true },
    });
    if (!transcription) throw notFound(`The transcription ${input.source_transcription_id}`);
    transcriptionUpdatedAt = transcription.updatedAt;
    if (body === undefined) {
      const source = sourceTextOf(transcription);
      body = source.text;
      sourceTextKind = source.kind;
      sourceNoteHash = noteTextHash(source.text);
    }
  }
  body ??= "";
  const title = input.title ?? titleFrom(body);
  const row = await prisma.contentItem.create({
    data: {
      userId,
      kind: "master",
      title,
      body,
      contentHash: contentHash(title, body),
      sourceTranscriptionId: input.source_transcription_id ?? null,
      sourceTextKind,
      sourceNoteHash,
    },
  });
  return presentItem(row, { note: sourceNoteHash ? { outdated: false, noteUpdatedAt: transcriptionUpdatedAt! } : null });
}
