import { defineOperation, idParameter, pathsOf, type ApiArea } from "@/lib/openapi/operation.ts";
import {
  CreateRewriteInput,
  CreateRewriteStyleInput,
  EditRewriteInput,
  Rewrite,
  RewriteDeleteResult,
  RewriteList,
  RewriteResult,
  RewriteStyle,
  RewriteStyleDeleteResult,
  RewriteStyleList,
  RewriteStyleResult,
  STYLES_MAX,
  UpdateRewriteStyleInput,
} from "@/lib/rewrites/schemas.ts";

// "Rewrite as…": a note rewritten in a style, kept beside it. Note-related, so under the
// `transcribe` scope like the notes themselves.
const tag = "Rewrites";
const scope = "transcribe";
const STYLE_NOT_FOUND = "No built-in style and none of yours has this id.";

export const listRewriteStyles = defineOperation({
  method: "get",
  path: "/api/v1/rewrite-styles",
  id: "listRewriteStyles",
  tag,
  summary: "List rewrite styles",
  description:
    "The built-in styles (email, todo_list, meeting_notes, blog_outline, social_post), then yours. Each says whether it " +
    "`needs_writer` and whether it is `available` now: without a writer only todo_list and blog_outline are.",
  scope,
  responses: { 200: { description: "The styles you can rewrite a note in.", schema: RewriteStyleList } },
});

export const createRewriteStyle = defineOperation({
  method: "post",
  path: "/api/v1/rewrite-styles",
  id: "createRewriteStyle",
  tag,
  summary: "Create a rewrite style",
  description: `A style of your own: a name and the instructions the writer follows. At most ${STYLES_MAX}. Your styles need a writer.`,
  scope,
  body: CreateRewriteStyleInput,
  responses: { 201: { description: "Created.", schema: RewriteStyleResult } },
  errors: { rewrite_style_limit_reached: `You have ${STYLES_MAX} styles; delete one first.` },
});

export const updateRewriteStyle = defineOperation({
  method: "patch",
  path: "/api/v1/rewrite-styles/{id}",
  id: "updateRewriteStyle",
  tag,
  summary: "Update a rewrite style",
  description: "Changes the name or instructions of one of your styles. Rewrites already written keep their text.",
  scope,
  parameters: idParameter("The style's id."),
  body: UpdateRewriteStyleInput,
  responses: { 200: { description: "The style after the update.", schema: RewriteStyleResult } },
  errors: { not_found: STYLE_NOT_FOUND, rewrite_style_read_only: "Built-in styles cannot be changed." },
});

export const deleteRewriteStyle = defineOperation({
  method: "delete",
  path: "/api/v1/rewrite-styles/{id}",
  id: "deleteRewriteStyle",
  tag,
  summary: "Delete a rewrite style",
  description: "Deletes one of your styles. Rewrites written with it are kept, with its name (`style_id` becomes null).",
  scope,
  parameters: idParameter("The style's id."),
  responses: { 200: { description: "Deleted; the body holds the style as it was.", schema: RewriteStyleDeleteResult } },
  errors: { not_found: STYLE_NOT_FOUND, rewrite_style_read_only: "Built-in styles cannot be deleted." },
});

export const createRewrite = defineOperation({
  method: "post",
  path: "/api/v1/transcriptions/{id}/rewrites",
  id: "createRewrite",
  tag,
  summary: "Rewrite a note in a style",
  description:
    "Writes the note (the text it shows: your edit, else the clean-up, else the recognized text) in a style and keeps " +
    "the rewrite beside it; the note is not changed. With a writer set up every style is written by it, in the note's " +
    "language and with your dictionary's spellings. Without one, or when it fails, todo_list (from the note's action " +
    "items) and blog_outline (from its key points) are written by rules: `written_by` is `offline` and " +
    "`offline_reason` says why the writer did not write it. The other styles and yours need the writer.",
  scope,
  parameters: idParameter("The transcription's id."),
  body: CreateRewriteInput,
  responses: { 201: { description: "The rewrite, stored.", schema: RewriteResult } },
  errors: {
    not_found: `You have no transcription with this id, or the style is unknown (${STYLE_NOT_FOUND.toLowerCase()})`,
    writer_required: "The style needs a writer (a language model) and none is set up; only todo_list and blog_outline are written without one.",
    writer_failed: "The style needs the writer and it failed (down, busy, refused or answered badly); the message says why. Try again later.",
    nothing_to_rewrite: "Written by rules, the note has nothing for this style: no action items for a to-do list, too little for an outline.",
  },
});

export const listRewrites = defineOperation({
  method: "get",
  path: "/api/v1/transcriptions/{id}/rewrites",
  id: "listRewrites",
  tag,
  summary: "List a note's rewrites",
  description: "The note's rewrites, newest first (at most 200).",
  scope,
  parameters: idParameter("The transcription's id."),
  responses: { 200: { description: "The rewrites.", schema: RewriteList } },
  errors: { not_found: "You have no transcription with this id." },
});

export const getRewrite = defineOperation({
  method: "get",
  path: "/api/v1/rewrites/{id}",
  id: "getRewrite",
  tag,
  summary: "Read a rewrite",
  description: "One of your rewrites.",
  scope,
  parameters: idParameter("The rewrite's id."),
  responses: { 200: { description: "The rewrite.", schema: RewriteResult } },
  errors: { not_found: "You have no rewrite with this id." },
});

export const editRewrite = defineOperation({
  method: "patch",
  path: "/api/v1/rewrites/{id}",
  id: "editRewrite",
  tag,
  summary: "Edit a rewrite",
  description: "Replaces the rewrite's text and/or title with yours (`edited_at` says when). The note is not changed.",
  scope,
  parameters: idParameter("The rewrite's id."),
  body: EditRewriteInput,
  responses: { 200: { description: "The rewrite after the edit.", schema: RewriteResult } },
  errors: { not_found: "You have no rewrite with this id." },
});

export const deleteRewrite = defineOperation({
  method: "delete",
  path: "/api/v1/rewrites/{id}",
  id: "deleteRewrite",
  tag,
  summary: "Delete a rewrite",
  description: "Deletes one of your rewrites; the note is kept.",
  scope,
  parameters: idParameter("The rewrite's id."),
  responses: { 200: { description: "Deleted; the body holds the rewrite as it was.", schema: RewriteDeleteResult } },
  errors: { not_found: "You have no rewrite with this id." },
});

export const rewritesArea: ApiArea = {
  tag: {
    name: tag,
    description:
      "\"Rewrite as…\": a note rewritten as an email, a to-do list, meeting notes, a blog outline, a social post or in a " +
      "style of your own, kept beside the note (never replacing it), editable and deletable.",
  },
  schemas: [
    CreateRewriteStyleInput, UpdateRewriteStyleInput, RewriteStyle, RewriteStyleList, RewriteStyleResult, RewriteStyleDeleteResult,
    CreateRewriteInput, EditRewriteInput, Rewrite, RewriteResult, RewriteList, RewriteDeleteResult,
  ],
  paths: pathsOf(listRewriteStyles, createRewriteStyle, updateRewriteStyle, deleteRewriteStyle, createRewrite, listRewrites, getRewrite, editRewrite, deleteRewrite),
};
