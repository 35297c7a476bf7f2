import { defineOperation, pathsOf, type ApiArea } from "@/lib/openapi/operation.ts";
import { DeleteTagQuery, DeleteTagResult, RenameTagInput, RenameTagResult, Tag, TAG_MAX, TagList, TAGS_PER_NOTE_MAX } from "@/lib/tags/schemas.ts";

// Tags across all notes. A note's own tags are set with PATCH /api/v1/transcriptions/{id}; these
// list, rename and delete them everywhere. Tag names are free text (spaces, accents), which the
// API's path ids are not, so they travel in the body or the query, as dictionary misspellings do.
const tag = "Tags";
const scope = "transcribe";
const NOT_FOUND = "None of your notes carries this tag (case aside).";

export const listTags = defineOperation({
  method: "get",
  path: "/api/v1/tags",
  id: "listTags",
  tag,
  summary: "List your tags",
  description: "Every tag on your notes with how many notes carry it, the most used first: what an app offers to add in one tap.",
  scope,
  responses: { 200: { description: "Your tags.", schema: TagList } },
});

export const renameTag = defineOperation({
  method: "post",
  path: "/api/v1/tags/rename",
  id: "renameTag",
  tag,
  summary: "Rename a tag on every note",
  description:
    "Renames `from` to `to` on every note that carries it (changing only its case is a rename too). When you already have " +
    "a tag named `to` (case aside), the two merge into it, spelled as you spell it, and `merged` is true; a note that " +
    "carried both keeps one. Notes' `updated_at` does not change.",
  scope,
  body: RenameTagInput,
  responses: { 200: { description: "The tag after the rename.", schema: RenameTagResult } },
  errors: { validation_failed: `from or to is empty, longer than ${TAG_MAX} characters, or holds , " / \\ or a control character.`, not_found: NOT_FOUND },
});

export const deleteTag = defineOperation({
  method: "delete",
  path: "/api/v1/tags",
  id: "deleteTag",
  tag,
  summary: "Delete a tag from every note",
  description: "Takes the tag named by `name` (case aside) off every note; the notes stay. The answer names it and how many notes carried it.",
  scope,
  query: DeleteTagQuery,
  responses: { 200: { description: "Deleted; the tag as it was.", schema: DeleteTagResult } },
  errors: { not_found: NOT_FOUND },
});

export const tagsArea: ApiArea = {
  tag: {
    name: tag,
    description:
      `Your labels for notes: at most ${TAGS_PER_NOTE_MAX} a note, each 1–${TAG_MAX} characters, one tag whatever its case. ` +
      "Set a note's tags and pin with PATCH /api/v1/transcriptions/{id}; list notes by tag with GET /api/v1/transcriptions?tag=… " +
      "or `tag:` in `q`.",
  },
  schemas: [Tag, TagList, RenameTagInput, RenameTagResult, DeleteTagResult],
  paths: pathsOf(listTags, renameTag, deleteTag),
};
