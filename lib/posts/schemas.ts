import { z } from "zod";
import { integerText } from "@/lib/http/integer-text.ts";
import { NAME_CHARS, NAME_CHARS_MESSAGE } from "@/lib/http/names.ts";
import type { ContentDelivery } from "@/lib/db/generated/client.ts";
import { canonicalBody, canonicalTitle } from "@/lib/posts/items/content-hash.ts";
import { CLIENT_DELIVERY_STATES, DELIVERY_STATES, GENERATION_STATES } from "@/lib/posts/items/states.ts";

export const TITLE_MAX = 300;
export const BODY_MAX = 50_000;
export const TARGETS_MAX = 10;
// Body: line breaks and tabs are fine; other control characters are not.
const BODY_CHARS = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/u;

const Title = z
  .string()
  .transform(canonicalTitle)
  .pipe(z.string().max(TITLE_MAX, `must be at most ${TITLE_MAX} characters`).regex(NAME_CHARS, NAME_CHARS_MESSAGE))
  .meta({ description: `Up to ${TITLE_MAX} characters, one line. Stored trimmed, in Unicode NFC.`, example: "Why we moved to Postgres" });
const Body = z
  .string()
  .transform(canonicalBody)
  .pipe(z.string().max(BODY_MAX, `must be at most ${BODY_MAX} characters`).regex(BODY_CHARS, "must not contain control characters other than line breaks and tabs"))
  .meta({ description: `Up to ${BODY_MAX} characters. Stored in Unicode NFC with \\n line endings.` });
export const ContentHash = z
  .string()
  .regex(/^[0-9a-f]{64}$/, "must be a content_hash: 64 lowercase hex digits")
  .meta({ description: 'Lowercase hex SHA-256 of the UTF-8 bytes of title + "\\n" + body, as the API returns them.' });
const ClientId = (what: string) =>
  z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, "must be 1–200 printable ASCII characters without spaces")
    .meta({ description: `${what}, unique and stable within your account.`, example: "3f1c2a9e-7b7c-4d0e-9a55-0b1f6f1f2a10" });
const Id = z.string().min(1).max(100);

export const CreateMasterInput = z
  .strictObject({
    title: Title.optional().meta({ description: "Default: the source transcription's title (yours, else its insights'), else the first line of the body, cut to 80 characters." }),
    body: Body.optional().meta({
      description: "Default: the text of source_transcription_id: your edit if any, else the optimized text, else the recognized text.",
    }),
    source_transcription_id: Id.optional().meta({ description: "One of your transcriptions this master is made from." }),
  })
  .refine((v) => v.body !== undefined || v.source_transcription_id !== undefined, {
    message: "give a body, a source_transcription_id, or both",
    path: ["body"],
  })
  .meta({ id: "ContentMasterInput" });
export type CreateMasterInput = z.output<typeof CreateMasterInput>;

export const EditItemInput = z
  .strictObject({
    expected_content_hash: ContentHash.meta({
      description: "The content_hash you last read; if the item changed since, the edit is refused with 409 edit_conflict.",
    }),
    title: Title.optional(),
    body: Body.optional(),
  })
  .refine((v) => v.title !== undefined || v.body !== undefined, { message: "give a title, a body, or both", path: ["body"] })
  .meta({ id: "ContentEditInput" });
export type EditItemInput = z.output<typeof EditItemInput>;

export const ListItemsQuery = z.strictObject({
  limit: integerText((n) => n.min(1).max(100)).optional().meta({ description: "Page size, 1–100 (default 50)." }),
  cursor: z.string().max(200).optional().meta({ description: "The next_cursor of the previous page." }),
  source_transcription_id: Id.optional().meta({
    description: "Only the masters made from this transcription (e.g. to reopen a note's posts instead of starting again).",
  }),
});
export type ListItemsQuery = z.output<typeof ListItemsQuery>;

export const Target = z.strictObject({
  channel_id: Id.meta({ description: "One of your active channels." }),
  preset_id: Id.meta({ description: "A built-in preset or one of yours." }),
});
export const CreateVariantsInput = z
  .strictObject({
    client_request_id: ClientId("Your id for this request: the same id replays the first answer"),
    targets: z.array(Target).min(1).max(TARGETS_MAX, `at most ${TARGETS_MAX} targets per request`),
  })
  .refine((v) => new Set(v.targets.map((t) => `${t.channel_id}\n${t.preset_id}`)).size === v.targets.length, {
    message: "each channel and preset pair may appear only once",
    path: ["targets"],
  })
  .meta({ id: "VariantsInput" });
export type CreateVariantsInput = z.output<typeof CreateVariantsInput>;

export const RegenerateInput = z
  .strictObject({
    expected_content_hash: ContentHash.optional().meta({
      description: "If given: refuse with 409 edit_conflict unless the variant still has this content_hash.",
    }),
    source: z.enum(["snapshot", "master"]).optional().meta({
      description:
        "snapshot (default): generate again from the variant's source snapshot. master: take a new snapshot of the " +
        "master's current content first — the way to refresh a stale variant.",
    }),
  })
  .meta({ id: "RegenerateInput" });
export type RegenerateInput = z.output<typeof RegenerateInput>;

export const RefreshFromNoteInput = z
  .strictObject({
    expected_content_hash: ContentHash.meta({
      description: "The master's content_hash you last read; if it changed since, the update is refused with 409 edit_conflict.",
    }),
    rewrite_posts: z.boolean().default(false).meta({
      description:
        "true: also write again, from the updated master, every variant that is not approved (one step for \"Update from the " +
        "note\"); approved variants stay as they are, stale, with their approvals and deliveries. Their ids are in `rewriting`.",
    }),
  })
  .meta({ id: "RefreshFromNoteInput" });
export type RefreshFromNoteInput = z.output<typeof RefreshFromNoteInput>;

export const ApproveInput = z
  .strictObject({ content_hash: ContentHash.meta({ description: "The content_hash of the title and body you approve." }) })
  .meta({ id: "ApproveInput" });
export type ApproveInput = z.output<typeof ApproveInput>;

export const RecordDeliveryInput = z
  .strictObject({
    client_event_id: ClientId("Your id for this event: the same id replays the first answer"),
    method: z.enum(["share", "copy", "export"]).meta({ description: "Share panel, clipboard copy, or file export." }),
    state: z.enum(CLIENT_DELIVERY_STATES).meta({
      description: "initiated, presented, cancelled or failed. A client can never report a confirmed publication here.",
    }),
    delivery_id: Id.optional().meta({ description: "Advance this earlier delivery instead of starting a new one." }),
    content_hash: ContentHash.optional().meta({ description: "The content you shared; default: the item's current content." }),
    post: z
      .int()
      .min(1)
      .max(25)
      .optional()
      .meta({ description: "For a thread shared post by post: which post (1 = the first) this delivery presented. Default: the whole variant. Fixed when the delivery starts." }),
  })
  .meta({ id: "DeliveryInput" });
export type RecordDeliveryInput = z.output<typeof RecordDeliveryInput>;

export const ManualDeliveryInput = z
  .strictObject({
    client_event_id: ClientId("Your id for this confirmation: the same id replays the first answer"),
    content_hash: ContentHash.meta({ description: "The content_hash of what you published: the approved, current one." }),
    published_url: z
      .url({ protocol: /^https?$/, error: "must be an http or https URL" })
      .max(2000)
      .optional()
      .meta({ description: "Where you published it, kept as your evidence. The service never fetches it." }),
  })
  .meta({ id: "ManualDeliveryInput" });
export type ManualDeliveryInput = z.output<typeof ManualDeliveryInput>;

// ─── Responses ───────────────────────────────────────────────────────────────────────────────
export const GenerationInfo = z
  .object({
    task_id: z.string(),
    state: z.enum(GENERATION_STATES),
    generator: z.string().meta({ description: "writer: a language model (WRITER_BASE_URL, or the one on the server itself), falling back to the offline rules; local: the offline rules." }),
    written_by: z
      .enum(["writer", "local-model", "offline", "external"])
      .nullable()
      .meta({ description: "Who wrote the result: the writer (WRITER_BASE_URL), the model on the server itself (local-model), the offline rules (see offline_reason), or an external generator; null until finished." }),
    offline_reason: z
      .string()
      .nullable()
      .meta({ description: "Why the offline rules wrote it though a writer is set up (it was down, refused the key, answered badly twice)." }),
    partial_body: z
      .string()
      .nullable()
      .meta({ description: "While the writer writes (state running): the post so far, a few times a second; null otherwise." }),
    model_on_its_way: z
      .object({ state: z.enum(["downloading", "waiting"]), percent: z.number().nullable() })
      .nullable()
      .meta({ description: "While the model on this machine is on its way (its download; waiting: it failed and is tried again) and the offline rules write meanwhile: how far along; null otherwise." }),
    error: z.string().nullable(),
    created_at: z.iso.datetime(),
    finished_at: z.iso.datetime().nullable(),
    set_aside: z
      .object({ title: z.string(), body: z.string(), content_hash: z.string() })
      .nullable()
      .meta({ description: "state conflicted: the result that was not applied because you edited the variant meanwhile." }),
  })
  .meta({ id: "GenerationInfo" });

export const SOURCE_TEXT_KINDS = ["edited", "optimized", "recognized"] as const;
export type SourceTextKind = (typeof SOURCE_TEXT_KINDS)[number];

export const ContentItem = z
  .object({
    id: z.string(),
    kind: z.enum(["master", "variant"]),
    master_id: z.string().nullable().meta({ description: "The master of a variant; null on a master." }),
    title: z.string(),
    body: z.string(),
    content_hash: z.string(),
    version: z.number().int().meta({ description: "1, then +1 on every change of title or body." }),
    source_transcription_id: z.string().nullable(),
    source_text_kind: z.enum(SOURCE_TEXT_KINDS).nullable().meta({
      description:
        "Which text of source_transcription_id became the master's body: edited (your edit of the transcript), optimized " +
        "(the AI-optimized text) or recognized (the recognizer's text with your dictionary). Null when the body was given " +
        "in the request, and on variants.",
    }),
    source_outdated: z.boolean().nullable().meta({
      description:
        "On a master that copied its note's text: true when the note's text changed since (a fixed word, an edit, a finished " +
        "clean-up); POST /api/v1/content/items/{id}/refresh-from-note copies it again. Null on variants, on masters whose body " +
        "was given in the request, and when the note was deleted.",
    }),
    source_note_updated_at: z.iso.datetime().nullable().meta({ description: "When the source note last changed (any change); null where source_outdated is null." }),
    channel_id: z.string().nullable(),
    preset_id: z.string().nullable(),
    posts: z.array(z.string()).nullable().meta({ description: "A variant's body split into its posts (one unless a thread)." }),
    source: z
      .object({ content_hash: z.string(), version: z.number().int() })
      .nullable()
      .meta({ description: "A variant's source snapshot: the master content it was generated from." }),
    generation: GenerationInfo.nullable(),
    approval: z
      .object({ state: z.enum(["awaiting_approval", "approved"]), approved_hash: z.string().nullable(), approved_at: z.iso.datetime().nullable() })
      .nullable(),
    freshness: z.enum(["fresh", "stale"]).nullable().meta({ description: "stale: the master changed after the source snapshot." }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "ContentItem" });
export type ContentItem = z.output<typeof ContentItem>;

export const ContentItemResult = z.object({ item: ContentItem }).meta({ id: "ContentItemResult" });
export const RefreshFromNoteResult = z
  .object({
    item: ContentItem,
    rewriting: z.array(z.string()).meta({ description: "The variants being written again (with rewrite_posts): follow each by GET until its generation ends." }),
  })
  .meta({ id: "RefreshFromNoteResult" });
export const ContentItemList = z
  .object({ items: z.array(ContentItem), next_cursor: z.string().nullable() })
  .meta({ id: "ContentItemList" });

export const VariantsResult = z
  .object({
    master_id: z.string(),
    client_request_id: z.string(),
    variants: z.array(
      z.object({
        channel_id: z.string(),
        preset_id: z.string(),
        variant_id: z.string(),
        created: z.boolean().meta({ description: "false: an existing variant for this channel and preset was reused." }),
        task_id: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "VariantsResult" });
export type VariantsResult = z.output<typeof VariantsResult>;

export const RegenerateResult = z
  .object({ item: ContentItem, task_id: z.string() })
  .meta({ id: "RegenerateResult" });

export const Delivery = z
  .object({
    id: z.string(),
    item_id: z.string(),
    method: z.enum(["share", "copy", "export", "manual"]),
    state: z.enum(DELIVERY_STATES),
    content_hash: z.string(),
    published_url: z.string().nullable(),
    post: z.int().nullable().meta({ description: "Which post of a thread this delivery presented (1 = the first); null: the whole variant." }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Delivery" });
export type Delivery = z.output<typeof Delivery>;
export const ContentFamily = z
  .object({
    master: ContentItem,
    variants: z.array(ContentItem),
    deliveries: z.array(Delivery).meta({ description: "Delivery evidence of the master and its variants, newest first." }),
  })
  .meta({ id: "ContentFamily" });
export type ContentFamily = z.output<typeof ContentFamily>;

export const DeliveryResult = z
  .object({ delivery: Delivery, replayed: z.boolean().meta({ description: "true: this client event id was recorded before." }) })
  .meta({ id: "DeliveryResult" });

export function toDelivery(row: ContentDelivery): Delivery {
  return {
    id: row.id,
    item_id: row.itemId,
    method: row.method as Delivery["method"],
    state: row.state as Delivery["state"],
    content_hash: row.contentHash,
    published_url: row.publishedUrl,
    post: row.post,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A generator's result for one task: from the built-in job, or posted to the signed callback. */
export const GenerationResult = z.strictObject({
  task_id: z.string().min(1).max(100),
  status: z.enum(["succeeded", "failed"]),
  title: z.string().max(TITLE_MAX * 4).optional(),
  body: z.string().max(BODY_MAX).optional(),
  error: z.string().max(1000).optional(),
});
export type GenerationResult = z.output<typeof GenerationResult>;
