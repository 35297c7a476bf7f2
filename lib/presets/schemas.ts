import { z } from "zod";
import { NAME_CHARS, NAME_CHARS_MESSAGE } from "@/lib/http/names.ts";
import type { Preset as PresetRow } from "@/lib/db/generated/client.ts";

export const TONES = ["neutral", "casual", "professional", "enthusiastic"] as const;
export const LENGTHS = ["short", "medium", "full"] as const;
export const FORMATS = ["single", "thread"] as const;

const PresetName = z
  .string()
  .transform((s) => s.normalize("NFC").trim())
  .pipe(z.string().min(1, "must not be empty").max(100, "must be at most 100 characters").regex(NAME_CHARS, NAME_CHARS_MESSAGE))
  .meta({ example: "Punchy thread" });
const Hashtag = z
  .string()
  .transform((s) => s.normalize("NFC").trim().replace(/^#/, ""))
  .pipe(z.string().regex(/^[\p{L}\p{N}_]{1,50}$/u, "must be letters, digits or _ (1–50), with or without a leading #"));

const fields = {
  name: PresetName,
  tone: z.enum(TONES).meta({ description: "Used by the openai generator; the local generator is tone-neutral." }),
  length: z.enum(LENGTHS).meta({ description: "short: the first paragraph; medium: about half; full: everything that fits." }),
  format: z.enum(FORMATS).meta({ description: "single: one post cut to the platform's limit; thread: numbered posts within it." }),
  hashtags: z.array(Hashtag).max(10).meta({ description: "Appended as #tags (at most 10), kept within the length limit." }),
  include_title: z.boolean().meta({ description: "Start the post with the master's title." }),
  invite_replies: z
    .boolean()
    .meta({ description: "End LinkedIn and Facebook posts with a question that invites replies, in the note's language (default true)." }),
};

export const CreatePresetInput = z
  .strictObject({
    ...fields,
    tone: fields.tone.optional(),
    length: fields.length.optional(),
    format: fields.format.optional(),
    hashtags: fields.hashtags.optional(),
    include_title: fields.include_title.optional(),
    invite_replies: fields.invite_replies.optional(),
  })
  .meta({ id: "PresetInput", description: "Defaults: tone neutral, length full, format single, no hashtags, no title, invite replies." });
export type CreatePresetInput = z.output<typeof CreatePresetInput>;

export const UpdatePresetInput = z
  .strictObject({
    name: fields.name.optional(),
    tone: fields.tone.optional(),
    length: fields.length.optional(),
    format: fields.format.optional(),
    hashtags: fields.hashtags.optional(),
    include_title: fields.include_title.optional(),
    invite_replies: fields.invite_replies.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, "give at least one field")
  .meta({ id: "PresetUpdate" });
export type UpdatePresetInput = z.output<typeof UpdatePresetInput>;

export const Preset = z
  .object({
    id: z.string(),
    built_in: z.boolean().meta({ description: "Built-in presets are shared by everyone and cannot be changed." }),
    name: z.string(),
    tone: z.enum(TONES),
    length: z.enum(LENGTHS),
    format: z.enum(FORMATS),
    hashtags: z.array(z.string()),
    include_title: z.boolean(),
    invite_replies: z.boolean(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Preset" });
export type Preset = z.output<typeof Preset>;

export const PresetResult = z.object({ preset: Preset }).meta({ id: "PresetResult" });
export const PresetDeleteResult = z.object({ deleted: Preset }).meta({ id: "PresetDeleteResult" });
export const PresetList = z.object({ presets: z.array(Preset) }).meta({ id: "PresetList" });

export function toPreset(row: PresetRow): Preset {
  return {
    id: row.id,
    built_in: row.userId === null,
    name: row.name,
    tone: row.tone as Preset["tone"],
    length: row.length as Preset["length"],
    format: row.format as Preset["format"],
    hashtags: row.hashtags,
    include_title: row.includeTitle,
    invite_replies: row.inviteReplies,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presetData(input: Partial<CreatePresetInput>) {
  return {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.tone !== undefined && { tone: input.tone }),
    ...(input.length !== undefined && { length: input.length }),
    ...(input.format !== undefined && { format: input.format }),
    ...(input.hashtags !== undefined && { hashtags: input.hashtags }),
    ...(input.include_title !== undefined && { includeTitle: input.include_title }),
    ...(input.invite_replies !== undefined && { inviteReplies: input.invite_replies }),
  };
}
