import { z } from "zod";
import { ResourceTemplate, type McpServer } from "@modelcontextprotocol/server";
import { ApiError, notFound } from "@/lib/http/errors.ts";
import { assertId } from "@/lib/http/parse.ts";
import { answering } from "@/lib/mcp/errors.ts";
import { noteMarkdown } from "@/lib/export/export-files.ts";
import { getNote } from "@/lib/notes/get-note.ts";
import { getFamily } from "@/lib/posts/items/get-family.ts";
import { toVtt } from "@/lib/transcription/upload/format-result.ts";
import { storedInsights } from "@/lib/insights/store-insights.ts";
import type { Caller } from "@/lib/mcp/tools.ts";
import { findOwnedNote } from "@/lib/notes/store/owned-note.ts";
import { notesCreatedSince } from "@/lib/notes/store/note-lists.ts";

// What an assistant can read as a document: a note as Markdown with front matter (as the export
// writes it), its transcript as WebVTT captions, and the posts made from it. Owner only: another
// person's id reads as a missing one. And two prompts: the week's open to-dos, and a post from a note.
// Ids are checked as the API checks them, and failures answer the API's errors (lib/mcp/errors.ts).

/** A URI template's variable, or a prompt's argument, as an id the API would take (else validation_failed). */
function idOf(name: string, value: string | string[], where: string): string {
  const id = Array.isArray(value) ? value[0] : value;
  assertId(name, id ?? "", where);
  return id;
}

async function noteRow(userId: string, id: string) {
  const row = await findOwnedNote({ userId, id }, {
    id: true, title: true, text: true, rawText: true, language: true, durationSec: true, editedAt: true, recordedAt: true, createdAt: true,
    optimization: { select: { status: true, optimizedText: true } }, insights: true, tags: true,
  });
  if (!row) throw notFound(`The note ${id}`);
  return row;
}

export function registerResources(server: McpServer, { userId, scopes, requestId }: Caller): void {
  server.registerResource(
    "note",
    new ResourceTemplate("note://{id}", { list: undefined }),
    { title: "A note", description: "A voice note as Markdown with front matter: its text, summary, key points, to-dos and the recognized text.", mimeType: "text/markdown" },
    answering(requestId, async (uri, { id }) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: noteMarkdown(await noteRow(userId, idOf("id", id, "The resource's"))).markdown }] })),
  );
  server.registerResource(
    "note-transcript",
    new ResourceTemplate("note://{id}/transcript.vtt", { list: undefined }),
    { title: "A note's timed transcript", description: "The recognized text as WebVTT captions, timed from the recording.", mimeType: "text/vtt" },
    answering(requestId, async (uri, { id }) => ({ contents: [{ uri: uri.href, mimeType: "text/vtt", text: toVtt(await getNote({ userId, id: idOf("id", id, "The resource's") })) }] })),
  );
  server.registerResource(
    "posts",
    new ResourceTemplate("posts://{master_id}", { list: undefined }),
    { title: "Posts made from a note", description: "Each channel's post, its state (being written, approved) and freshness, as JSON.", mimeType: "application/json" },
    answering(requestId, async (uri, { master_id }) => {
      if (!scopes.includes("content:read")) throw new ApiError("insufficient_scope", 'This API key lacks the scope "content:read".');
      const family = await getFamily({ userId, id: idOf("master_id", master_id, "The resource's") });
      return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(family) }] };
    }),
  );

  server.registerPrompt(
    "weekly_review",
    { title: "Weekly review", description: "The to-dos still open in the notes of the last seven days, grouped by note." },
    answering(requestId, async () => {
      const since = new Date(Date.now() - 7 * 24 * 3600 * 1000);
      const notes = await notesCreatedSince({ userId, since }, { id: true, title: true, text: true, insights: true, createdAt: true });
      const groups = notes.flatMap((n) => {
        const insights = storedInsights(n.insights);
        const open = insights?.action_items.filter((a) => !a.done) ?? [];
        if (!open.length) return [];
        const title = n.title ?? insights?.title ?? n.text.slice(0, 60);
        return [`### ${title} (${n.createdAt.toISOString().slice(0, 10)}, note://${n.id})\n${open.map((a) => `- [ ] ${a.text}`).join("\n")}`];
      });
      const body = groups.length ? groups.join("\n\n") : "No open to-dos in the notes of the last seven days.";
      return {
        messages: [{ role: "user" as const, content: { type: "text" as const, text: `Help me review my week. These are the to-dos still open in my voice notes of the last seven days:\n\n${body}\n\nGroup what belongs together, say what looks most urgent, and ask me which ones are done (tick them with tick_action_item once I say so).` } }],
      };
    }),
  );
  server.registerPrompt(
    "draft_post",
    {
      title: "Draft a post from a note",
      description: "Write a post for one platform from one note, in the person's own words.",
      argsSchema: { note_id: z.string().describe("The note's id."), platform: z.string().describe("Where it will be posted: linkedin, x, bluesky, threads, newsletter, blog…") },
    },
    answering(requestId, async ({ note_id, platform }) => {
      const markdown = noteMarkdown(await noteRow(userId, idOf("note_id", note_id, "The argument"))).markdown;
      return {
        messages: [
          {
            role: "user" as const,
            content: {
              type: "text" as const,
              text: `Draft a ${platform} post from this voice note of mine, in my own voice. Keep my facts; add no names or numbers I did not say. I approve and share it myself from the Voicedraft app.\n\n${markdown}`,
            },
          },
        ],
      };
    }),
  );
}
