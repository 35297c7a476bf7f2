import {
  ApproveInput,
  ContentFamily,
  ContentItem,
  ContentItemList,
  ContentItemResult,
  RefreshFromNoteResult,
  CreateMasterInput,
  CreateVariantsInput,
  Delivery,
  DeliveryResult,
  EditItemInput,
  GenerationInfo,
  ListItemsQuery,
  ManualDeliveryInput,
  RecordDeliveryInput,
  RefreshFromNoteInput,
  RegenerateInput,
  RegenerateResult,
  VariantsResult,
} from "@/lib/posts/schemas.ts";
import { CHANNEL_OPERATIONS, CHANNEL_SCHEMAS } from "@/lib/channels/contracts.ts";
import { PRESET_OPERATIONS, PRESET_SCHEMAS } from "@/lib/presets/contracts.ts";
import { VARIANTS } from "@/lib/posts/feature-flag.ts";
import { defineOperation, idParameter, pathsOf, type ApiArea, type ErrorCases } from "@/lib/openapi/operation.ts";
import { conflictWhen, KEY_KINDS } from "@/lib/idempotency/key-kinds.ts";

const tag = "Content";
const ITEM = idParameter("The id of a content item: a master or a variant.");
const MASTER = idParameter("The id of a master (master_id in the interface).");
const VARIANT = idParameter("The id of a variant (variant_id in the interface).");
const ITEM_404: ErrorCases = { not_found: "You have no content item with this id (another user's id is not found either)." };
const VARIANT_404: ErrorCases = { not_found: "You have no variant with this id (a master's id is not a variant)." };

export const listContentMasters = defineOperation({
  method: "get",
  path: "/api/v1/content/items",
  id: "listContentMasters",
  tag,
  summary: "List masters",
  description: "Your masters, newest first. Follow next_cursor until it is null.",
  scope: "content:read",
  query: ListItemsQuery,
  responses: { 200: { description: "A page of masters.", schema: ContentItemList } },
});

export const createContentMaster = defineOperation({
  method: "post",
  path: "/api/v1/content/items",
  id: "createContentMaster",
  tag,
  summary: "Create a master",
  description:
    "A new master from a body, from one of your transcriptions (its text becomes the body), or both. The title " +
    "defaults to the transcription's title (yours, else its insights'), else the body's first line.",
  scope: "content:write",
  body: CreateMasterInput,
  responses: { 201: { description: "Created.", schema: ContentItemResult } },
  errors: { not_found: "You have no transcription with source_transcription_id." },
});

export const getContentItem = defineOperation({
  method: "get",
  path: "/api/v1/content/items/{id}",
  id: "getContentItem",
  tag,
  summary: "Read a master or variant",
  description: "One item with, for a variant, its generation, approval and freshness.",
  scope: "content:read",
  parameters: ITEM,
  responses: { 200: { description: "The item.", schema: ContentItemResult } },
  errors: ITEM_404,
});

export const editContentItem = defineOperation({
  method: "patch",
  path: "/api/v1/content/items/{id}",
  id: "editContentItem",
  tag,
  summary: "Edit a master or variant",
  description:
    "Changes the title and/or body if the item still has expected_content_hash. A real change increments version " +
    "and invalidates any approval; editing a master makes its variants stale. A variant edited while it is being " +
    "generated keeps your edit: the generator's result is set aside (generation state conflicted).",
  scope: "content:write",
  parameters: ITEM,
  body: EditItemInput,
  responses: { 200: { description: "The item after the edit.", schema: ContentItemResult } },
  errors: { ...ITEM_404, edit_conflict: "The item changed since you read it; read it again and reapply your edit." },
});

export const refreshContentFromNote = defineOperation({
  method: "post",
  path: "/api/v1/content/items/{id}/refresh-from-note",
  id: "refreshContentFromNote",
  tag,
  summary: "Update a master from its note",
  description:
    "Copies the note's current text (your edit, else the cleaned-up text, else the recognized text) into the master made " +
    "from it, when source_outdated says the note changed. Like any edit of a master, a real change increments version " +
    "and makes its variants stale: their approvals no longer count until they are regenerated or edited and approved again. " +
    "With rewrite_posts, every variant that is not approved is written again from the new text in the same step.",
  scope: "content:write",
  parameters: MASTER,
  body: RefreshFromNoteInput,
  responses: { 200: { description: "The master after the update, and the variants being written again.", schema: RefreshFromNoteResult } },
  errors: {
    not_found: "You have no master with this id (a variant's id is not a master).",
    edit_conflict: "expected_content_hash is not the master's current content_hash.",
    no_source_note: "The master was not copied from a note, or its note was deleted.",
  },
});

export const getContentFamily = defineOperation({
  method: "get",
  path: "/api/v1/content/items/{id}/family",
  id: "getContentFamily",
  tag,
  summary: "Read a content family",
  description:
    "The master and its variants, each with generation (queued, running, succeeded, failed, conflicted, superseded), " +
    "approval (awaiting_approval, approved) and freshness (fresh, stale), and the family's delivery evidence. Give the " +
    "id of the master or of any variant.",
  scope: "content:read",
  parameters: ITEM,
  responses: { 200: { description: "The family.", schema: ContentFamily } },
  errors: ITEM_404,
});

export const createContentVariants = defineOperation({
  method: "post",
  path: "/api/v1/content/items/{id}/variants",
  id: "createContentVariants",
  tag,
  summary: "Create or reuse variants",
  description:
    "One variant per target (1–10 targets; each channel one of your active channels, each preset a built-in or yours); " +
    "a variant that already exists for the master, channel and preset is reused. New variants are generated in the " +
    "background: read the family until their generation state is succeeded. Idempotent: the same client_request_id " +
    "with the same master content, targets (in any order) and source snapshot replays the first answer, with the " +
    "header Idempotent-Replayed: true; anything else under that id is 409 idempotency_conflict. Concurrent identical " +
    "requests create one set.",
  scope: "content:write",
  feature: VARIANTS,
  parameters: MASTER,
  body: CreateVariantsInput,
  responses: {
    201: { description: "At least one variant was created (or the replay of such an answer).", schema: VariantsResult },
    200: { description: "Every target already had a variant; they were reused.", schema: VariantsResult },
  },
  errors: {
    not_found: "You have no master with this id, or a channel or preset of a target is not found (or not yours).",
    channel_inactive: "A target's channel is inactive.",
    idempotency_conflict: conflictWhen(KEY_KINDS.variants),
    validation_failed: "A field is missing or invalid, there are more than 10 targets, or a target repeats.",
  },
});

export const regenerateContentVariant = defineOperation({
  method: "post",
  path: "/api/v1/content/items/{id}/regenerate",
  id: "regenerateContentVariant",
  tag,
  summary: "Regenerate a variant",
  description:
    "A new generation task for the variant, from its source snapshot (source: snapshot, the default) or from a new " +
    "snapshot of the master (source: master — this is how a stale variant becomes fresh). Unfinished older tasks " +
    "are superseded. If you edit the variant before the result arrives, the result is set aside and your edit stays.",
  scope: "content:write",
  feature: VARIANTS,
  parameters: VARIANT,
  body: RegenerateInput,
  responses: { 202: { description: "The task is queued.", schema: RegenerateResult } },
  errors: { ...VARIANT_404, edit_conflict: "expected_content_hash is not the variant's current content_hash." },
});

export const approveContentVariant = defineOperation({
  method: "post",
  path: "/api/v1/content/items/{id}/approve",
  id: "approveContentVariant",
  tag,
  summary: "Approve a variant",
  description:
    "Approves exactly the title and body whose content_hash is given. Any later change of title or body (your edit " +
    "or a regeneration) invalidates the approval. Approving again with the same hash is harmless.",
  scope: "content:write",
  feature: VARIANTS,
  parameters: VARIANT,
  body: ApproveInput,
  responses: { 200: { description: "Approved.", schema: ContentItemResult } },
  errors: {
    ...VARIANT_404,
    edit_conflict: "content_hash is not the variant's current content_hash.",
    generation_in_progress: "The variant is being generated; approve once its generation has finished.",
  },
});

export const recordContentDelivery = defineOperation({
  method: "post",
  path: "/api/v1/content/items/{id}/deliveries",
  id: "recordContentDelivery",
  tag,
  summary: "Record share, copy or export evidence",
  description:
    "Records what your share panel, clipboard copy or file export did. Evidence states: initiated → presented → " +
    "cancelled | failed (initiated may also go straight to cancelled or failed; a new delivery may start in any of " +
    "them). Send delivery_id to advance an earlier delivery. None of these states confirms a publication — opening a " +
    "share panel proves only that sharing was started or presented; the one confirmed state, confirmed_manual, comes " +
    "only from the manual confirmation. Idempotent per client_event_id.",
  scope: "content:write",
  parameters: ITEM,
  body: RecordDeliveryInput,
  responses: {
    201: { description: "Recorded.", schema: DeliveryResult },
    200: { description: "This client_event_id was recorded before; its delivery as it is now.", schema: DeliveryResult },
  },
  errors: {
    ...ITEM_404,
    not_found: "You have no content item with this id, or no delivery delivery_id of this item.",
    invalid_transition: "The delivery cannot move to this state (e.g. back to initiated), or has another method.",
    idempotency_conflict: conflictWhen(KEY_KINDS.deliveryEvent),
  },
});

export const confirmManualDelivery = defineOperation({
  method: "post",
  path: "/api/v1/content/items/{id}/deliveries/manual",
  id: "confirmManualDelivery",
  tag,
  summary: "Confirm a manual publication",
  description:
    "You published the variant yourself; this records it as confirmed_manual. Accepted only for an approved variant " +
    "that is not stale, and only with its approved content_hash. published_url is kept as your evidence; the service " +
    "never contacts it or any third-party platform. Idempotent per client_event_id, and recorded once per variant and " +
    "content_hash: confirming the same content again (another client_event_id) answers the first confirmation (200, " +
    "replayed true), taking a newly given published_url.",
  scope: "content:write",
  feature: VARIANTS,
  parameters: VARIANT,
  body: ManualDeliveryInput,
  responses: {
    201: { description: "Confirmed.", schema: DeliveryResult },
    200: { description: "This client_event_id, or this content_hash of the variant, was confirmed before.", schema: DeliveryResult },
  },
  errors: {
    ...VARIANT_404,
    not_approved: "The variant's current title and body are not approved.",
    stale: "The master changed after the variant's source snapshot; regenerate (source: master), approve, then confirm.",
    edit_conflict: "content_hash is not the variant's current, approved content_hash.",
    idempotency_conflict: conflictWhen(KEY_KINDS.deliveryEvent),
  },
});

export const contentArea: ApiArea = {
  tag: {
    name: tag,
    description:
      "Masters (typically made from a transcript) and their platform variants for your active channels: generated in " +
      "the background, edited with edit-conflict protection, approved by content_hash, shared, and recorded as delivered " +
      "with honest evidence. content_hash = lowercase hex SHA-256 of the UTF-8 bytes of title + \"\\n\" + body, where " +
      "both are in Unicode NFC with \\n line endings and the title is trimmed (the API returns them that way). " +
      "Voicedraft never holds third-party credentials and never publishes for you: opening a share panel never confirms " +
      "a publication. Platform variants are rolled out per environment; when they are off, the variant routes answer 404 " +
      "feature_disabled.",
  },
  schemas: [
    CreateMasterInput,
    EditItemInput,
    RefreshFromNoteInput,
    CreateVariantsInput,
    RegenerateInput,
    ApproveInput,
    RecordDeliveryInput,
    ManualDeliveryInput,
    GenerationInfo,
    ContentItem,
    ContentItemResult,
    RefreshFromNoteResult,
    ContentItemList,
    ContentFamily,
    VariantsResult,
    RegenerateResult,
    Delivery,
    DeliveryResult,
    ...CHANNEL_SCHEMAS,
    ...PRESET_SCHEMAS,
  ],
  paths: pathsOf(
    listContentMasters, createContentMaster, getContentItem, editContentItem, refreshContentFromNote, getContentFamily, createContentVariants,
    regenerateContentVariant, approveContentVariant, recordContentDelivery, confirmManualDelivery,
    ...CHANNEL_OPERATIONS, ...PRESET_OPERATIONS,
  ),
};
