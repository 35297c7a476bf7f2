import { z } from "zod";
import { NAME_CHARS, NAME_CHARS_MESSAGE } from "@/lib/http/names.ts";
import { normalizeTag, TAG_MAX, TAGS_PER_NOTE_MAX, uniqueTags } from "@/lib/tags/normalize-tag.ts";

export { TAG_MAX, TAGS_PER_NOTE_MAX };

// , separates tags where people type several at once; " quotes one in a `tag:` search; / and \
// are kept out so a tag is always one piece of a path or a file name.
const TAG_CHARS = /^[^,"/\\]*$/u;

export const TagName = z
  .string()
  .max(1000, "must be at most 1000 characters")
  .overwrite(normalizeTag)
  .min(1, "must not be empty")
  .max(TAG_MAX, `must be at most ${TAG_MAX} characters`)
  .regex(NAME_CHARS, NAME_CHARS_MESSAGE)
  .regex(TAG_CHARS, 'must not contain , " / or \\')
  .meta({
    description:
      `A tag: 1–${TAG_MAX} characters after trimming (a leading # is dropped, spaces are collapsed); no , " / \\ or ` +
      "control characters. The same tag whatever its case: your first spelling is kept.",
    example: "work",
  });

export const NoteTags = z
  .array(TagName)
  .max(100, "must hold at most 100 tags")
  .overwrite(uniqueTags)
  .max(TAGS_PER_NOTE_MAX, `must hold at most ${TAGS_PER_NOTE_MAX} different tags`)
  .meta({
    description:
      `The note's tags, replacing the ones it has (at most ${TAGS_PER_NOTE_MAX}; [] removes them all). Repeats (case aside) ` +
      "count once; a tag you already use elsewhere keeps your spelling of it. A recording in parts is one note: its tags " +
      "are set on every part.",
    example: ["work", "ideas"],
  });

export const Tag = z
  .object({
    name: z.string().meta({ description: "The tag as you spell it.", example: "work" }),
    notes: z.number().int().meta({ description: "How many notes carry it (a recording in parts counts once)." }),
  })
  .meta({ id: "Tag" });

export const TagList = z
  .object({ tags: z.array(Tag).meta({ description: "Every tag you use, the most used first (then by name)." }) })
  .meta({ id: "TagList" });

export const RenameTagInput = z
  .strictObject({
    from: TagName.meta({ description: "The tag to rename (case aside)." }),
    to: TagName.meta({ description: "Its new name. If you already have a tag by that name (case aside), the two are merged into it." }),
  })
  .meta({ id: "RenameTagInput" });

export const RenameTagResult = z
  .object({
    tag: Tag.meta({ description: "The tag after the rename, with its notes." }),
    merged: z.boolean().meta({ description: "true: `to` was already a tag of yours, and the notes of `from` now carry it." }),
  })
  .meta({ id: "RenameTagResult" });

export const DeleteTagQuery = z.strictObject({ name: TagName.meta({ description: "The tag to take off every note (case aside)." }) });

export const DeleteTagResult = z
  .object({ deleted: Tag.meta({ description: "The tag as it was, with how many notes carried it." }) })
  .meta({ id: "DeleteTagResult" });
