import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/server";
import type { Scope } from "@/lib/api-keys/scopes.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { EditTranscriptionInput, ListTranscriptionsQuery } from "@/lib/notes/schemas.ts";
import { assertId, assertSafeText, validationError } from "@/lib/http/parse.ts";
import { toolRefusal } from "@/lib/mcp/errors.ts";
import { TickActionItemsInput } from "@/lib/insights/schemas.ts";
import { UpsertEntryInput } from "@/lib/dictionary/schemas.ts";
import { TagName } from "@/lib/tags/schemas.ts";
import { getNote } from "@/lib/notes/get-note.ts";
import { presentedTextOf } from "@/lib/notes/store/shown-text.ts";
import { listNotes } from "@/lib/notes/list-notes.ts";
import { editNote } from "@/lib/notes/edit-note.ts";
import { tickActionItems } from "@/lib/notes/tick-action-items.ts";
import { listTags } from "@/lib/tags/list-tags.ts";
import { upsertEntry } from "@/lib/dictionary/upsert-entry.ts";
import { listChannels } from "@/lib/channels/channel-store.ts";
import { createMaster } from "@/lib/posts/items/create-master.ts";
import { createVariants } from "@/lib/posts/generation/create-variants.ts";
import { getFamily } from "@/lib/posts/items/get-family.ts";
import { POSTS_APP_URI } from "@/lib/mcp/posts-app.ts";
import { composeUrl, platformLabel, platformRules, postLength } from "@/lib/channels/platforms.ts";

// The tools an assistant may call, each the same verb the API calls, with the API's zod schemas
// for its input, and honest hints: what only reads, what changes, what may be repeated. None the
// model sees approves, shares, confirms a publication or deletes: those stay a person's acts, in
// Voicedraft's own app. Not even for the posts app: a tool an app may call is a tool the client
// holds, and a client's word that its host keeps it from the model is no person's (issue 66).

/** Who calls (a key's or an access token's person and scopes), and the request's id for its errors. */
export type Caller = {
  userId: string;
  scopes: readonly Scope[];
  requestId: string;
  /** This site's public origin, for links into Voicedraft's own app (where a person approves). */
  origin: string;
  /** Aborted when the client goes away: a call still waiting for its turn leaves the line. */
  signal?: AbortSignal;
};

// Ids are checked as the API checks a path's (assertId: validation_failed), in the tool, so the
// refusal is the API's; the schema only says what they look like.
const Id = z.string().meta({ format: "uuid" }).describe("The note's id (as search_notes and list_notes give it).");

/** An id argument the API would take (1–64 letters, digits, _ or -), else validation_failed. */
export function idArgument(name: string, value: string): string {
  assertId(name, value, "The argument");
  return value;
}
const Limit = z.number().int().min(1).max(100).default(20).describe("At most this many, 1–100.");

/** The API's own check of an input (its query schema, say), failing as the API does. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(JSON.parse(JSON.stringify(input)));
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** The tool's answer: its data as text for the model, and the same as structured content. */
const answer = (data: Record<string, unknown>) => ({ content: [{ type: "text" as const, text: JSON.stringify(data) }], structuredContent: data });

type Annotations = { readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean };

/**
 * Registers tools for this caller: each checks its scope and that its arguments hold no NUL (as
 * the API checks a body), answers its data (text and structured), and turns any failure into the
 * API's error as a refusal the model reads (lib/mcp/errors.ts).
 */
export function toolRegistrar(server: McpServer, caller: Caller) {
  const needs = (scope: Scope) => {
    if (!caller.scopes.includes(scope)) throw new ApiError("insufficient_scope", `This API key lacks the scope "${scope}".`);
  };
  return <Shape extends z.ZodRawShape>(
    name: string,
    config: { title: string; description: string; inputSchema: Shape; outputSchema?: z.ZodObject; annotations: Annotations; _meta?: Record<string, unknown> },
    scope: Scope,
    run: (input: z.output<z.ZodObject<Shape>>) => Promise<Record<string, unknown>>,
  ) =>
    server.registerTool(name, { ...config, inputSchema: z.object(config.inputSchema), annotations: { openWorldHint: false, ...config.annotations } }, (async (input: z.output<z.ZodObject<Shape>>) => {
      try {
        needs(scope);
        assertSafeText(input, "The call");
        return answer(await run(input));
      } catch (err) {
        return toolRefusal(err, caller.requestId);
      }
    }) as never);
}

export function registerTools(server: McpServer, caller: Caller): void {
  const { userId } = caller;
  const tool = toolRegistrar(server, caller);
  const noteSummary = (n: { id: string; title: string | null; insights?: { title?: string | null } | null; text: string; created_at: string; tags: string[]; search?: unknown }) => ({
    id: n.id,
    title: n.title ?? n.insights?.title ?? n.text.slice(0, 80),
    created_at: n.created_at,
    tags: n.tags,
    ...(n.search ? { snippet: n.search } : {}),
  });

  tool(
    "search_notes",
    {
      title: "Search notes",
      description: "Search the person's voice notes (titles, texts, clean-ups, insights) in web search syntax; best match first, each with a snippet.",
      inputSchema: { query: z.string().min(1).max(200).describe("Words, \"a phrase\", -excluded, tag:work."), tag: TagName.optional(), limit: Limit },
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    "transcribe",
    async ({ query, tag, limit }) => {
      const found = await listNotes({ userId, input: parseWith(ListTranscriptionsQuery, { q: query, tag, limit: String(limit) }) });
      return { notes: found.transcriptions.map(noteSummary), next_cursor: found.next_cursor };
    },
  );

  tool(
    "list_notes",
    {
      title: "List notes",
      description: "The person's notes, pinned first, then newest first; follow next_cursor for older ones.",
      inputSchema: { tag: TagName.optional(), limit: Limit, cursor: z.string().max(200).optional() },
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    "transcribe",
    async ({ tag, limit, cursor }) => {
      const page = await listNotes({ userId, input: parseWith(ListTranscriptionsQuery, { tag, cursor, limit: String(limit) }) });
      return { notes: page.transcriptions.map(noteSummary), next_cursor: page.next_cursor };
    },
  );

  tool(
    "get_note",
    {
      title: "Read a note",
      description: "One note: its text (the person's edit, else the cleaned-up text, else the recognized one), insights (summary, key points, to-dos) and tags; word times on request.",
      inputSchema: { id: Id, words: z.boolean().default(false).describe("true: also each word with its time in seconds.") },
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    "transcribe",
    async ({ id, words }) => {
      const note = await getNote({ userId, id: idArgument("id", id) });
      const { text } = presentedTextOf(note);
      return {
        id: note.id,
        title: note.title ?? note.insights?.title ?? null,
        text,
        language: note.language,
        created_at: note.created_at,
        updated_at: note.updated_at,
        tags: note.tags,
        insights: note.insights ?? null,
        ...(words && { words: note.words ?? [] }),
      };
    },
  );

  tool(
    "list_tags",
    { title: "List tags", description: "The person's tags with how many notes carry each, most used first.", inputSchema: {}, annotations: { readOnlyHint: true, idempotentHint: true } },
    "transcribe",
    async () => ({ tags: await listTags({ userId }) }),
  );

  tool(
    "update_note_text",
    {
      title: "Replace a note's text",
      description: "Replaces the note's text with the given one. updated_at must be the note's as last read: if it changed since, this is refused (edit_conflict) and the note must be read again.",
      inputSchema: { id: Id, text: EditTranscriptionInput.shape.text, updated_at: z.string().describe("The note's updated_at as get_note answered it.") },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    "transcribe",
    async ({ id, text, updated_at }) => {
      const saved = await editNote({ userId, id: idArgument("id", id), input: parseWith(EditTranscriptionInput, { text, updated_at }) });
      return { id: saved.id, updated_at: saved.updated_at, dictionary_suggestions: saved.dictionary_suggestions };
    },
  );

  tool(
    "tick_action_item",
    {
      title: "Tick a to-do",
      description: "Ticks (or unticks) to-dos of a note's insights, named by their text as get_note gives them.",
      inputSchema: { id: Id, action_items: TickActionItemsInput.shape.action_items },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    "transcribe",
    async ({ id, action_items }) => {
      const note = await tickActionItems({ userId, id: idArgument("id", id), input: { action_items } });
      return { id: note.id, action_items: note.insights?.action_items ?? [] };
    },
  );

  tool(
    "add_dictionary_entry",
    {
      title: "Teach a spelling",
      description: "Adds (or updates) an entry of the person's dictionary: how a word the recognizer gets wrong is always written, in every note from now on.",
      inputSchema: UpsertEntryInput.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    "dictionary:write",
    async (input) => {
      const { entry, created } = await upsertEntry({ userId, input: parseWith(UpsertEntryInput, input) });
      return { entry, created };
    },
  );

  tool(
    "make_posts",
    {
      title: "Make posts from a note",
      description:
        "Turns a note into a post for each of the person's active channels (or those named). The posts are written in the background: " +
        "read them with get_posts. They wait for the person's approval on their phone; nothing is published.",
      inputSchema: { note_id: Id, channel_ids: z.array(z.string().uuid()).max(20).optional().describe("Default: every active channel.") },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    "content:write",
    async ({ note_id, channel_ids }) => {
      idArgument("note_id", note_id);
      const channels = (await listChannels({ userId })).filter((c) => c.active && (!channel_ids || channel_ids.includes(c.id)));
      if (!channels.length) throw new ApiError("channel_inactive", "There is no active channel to write for: the person adds one in the app (Posts → Add channel).");
      const master = await createMaster({ userId, input: { source_transcription_id: note_id } as never });
      const made = await createVariants({
        userId,
        masterId: master.id,
        input: { client_request_id: `mcp-${master.id}`, targets: channels.map((c) => ({ channel_id: c.id, preset_id: c.default_preset_id })) },
      });
      return { master_id: master.id, variants: made.body.variants.map((v) => ({ id: v.variant_id, channel_id: v.channel_id })) };
    },
  );

  tool(
    "get_posts",
    {
      title: "Read posts",
      description:
        "The posts made from a note (by make_posts' master_id): each channel's text (a thread post by post, each with its length as the platform counts it), " +
        "whether it is still being written, approved, or out of date; and app_url, the page in Voicedraft where the person approves them (no tool approves).",
      inputSchema: { master_id: Id.describe("The id make_posts answered as master_id.") },
      annotations: { readOnlyHint: true, idempotentHint: true },
      // A host that renders MCP Apps shows the answer as the phone does (lib/mcp/posts-app.ts).
      _meta: { ui: { resourceUri: POSTS_APP_URI } },
    },
    "content:read",
    async ({ master_id }) => postsOf(caller, idArgument("master_id", master_id)),
  );
}

/** A note's posts as get_posts answers them: each as the phone shows it, its thread post by post. */
async function postsOf({ userId, origin }: Caller, masterId: string) {
  const family = await getFamily({ userId, id: masterId });
  const channels = new Map((await listChannels({ userId })).map((c) => [c.id, c]));
  return {
    master_id: family.master.id,
    source_outdated: family.master.source_outdated,
    // Where the person reads and approves these posts: Voicedraft's own page of them.
    app_url: `${origin}/content/${family.master.id}`,
    posts: family.variants.map((v) => {
      const channel = v.channel_id ? channels.get(v.channel_id) : undefined;
      const platform = channel?.platform ?? "other";
      const parts = v.posts?.length ? v.posts : [v.body];
      const { limit } = platformRules(platform);
      return {
        id: v.id,
        channel_id: v.channel_id,
        channel_name: channel?.name ?? null,
        platform,
        platform_label: platformLabel(platform),
        title: v.title,
        text: v.body,
        content_hash: v.content_hash,
        // Each post of a thread (one unless a thread), with its length as the platform counts it.
        thread: parts.map((part) => ({ text: part, length: postLength(platform, part), limit })),
        // A thread starts from its first post.
        compose_url: composeUrl(platform, parts[0]),
        writing: v.generation?.state === "queued" || v.generation?.state === "running",
        approved: v.approval?.state === "approved",
        freshness: v.freshness,
      };
    }),
  };
}
