import { z } from "zod";
import { NAME_CHARS, NAME_CHARS_MESSAGE } from "@/lib/http/names.ts";

export const BUILT_IN_STYLE_IDS = ["email", "todo_list", "meeting_notes", "blog_outline", "social_post"] as const;
export type BuiltInStyleId = (typeof BUILT_IN_STYLE_IDS)[number];

export const STYLE_NAME_MAX = 60;
export const INSTRUCTIONS_MAX = 2000;
export const STYLES_MAX = 50;
export const REWRITE_TITLE_MAX = 200;
export const REWRITE_TEXT_MAX = 50_000;

const StyleName = z
  .string()
  .transform((s) => s.normalize("NFC").trim())
  .pipe(z.string().min(1, "must not be empty").max(STYLE_NAME_MAX, `must be at most ${STYLE_NAME_MAX} characters`).regex(NAME_CHARS, NAME_CHARS_MESSAGE))
  .meta({ example: "Status update for my team" });
const Instructions = z
  .string()
  .transform((s) => s.normalize("NFC").trim())
  .pipe(z.string().min(1, "must not be empty").max(INSTRUCTIONS_MAX, `must be at most ${INSTRUCTIONS_MAX} characters`))
  .meta({
    description: "What the writer is told to do with the note, in your words.",
    example: "Three short bullet points for my team's Monday update: done, next, blocked. No greeting.",
  });

export const CreateRewriteStyleInput = z.strictObject({ name: StyleName, instructions: Instructions }).meta({ id: "RewriteStyleInput" });
export type CreateRewriteStyleInput = z.output<typeof CreateRewriteStyleInput>;

export const UpdateRewriteStyleInput = z
  .strictObject({ name: StyleName.optional(), instructions: Instructions.optional() })
  .refine((v) => v.name !== undefined || v.instructions !== undefined, "give name, instructions or both")
  .meta({ id: "RewriteStyleUpdate" });
export type UpdateRewriteStyleInput = z.output<typeof UpdateRewriteStyleInput>;

export const RewriteStyle = z
  .object({
    id: z.string().meta({ description: "A built-in style's id (email, todo_list, meeting_notes, blog_outline, social_post) or your style's id." }),
    built_in: z.boolean(),
    name: z.string(),
    instructions: z.string().meta({ description: "What the writer is asked to do (a built-in style's own instructions, or yours)." }),
    needs_writer: z.boolean().meta({ description: "Only a writer (a language model) can write this style; the to-do list and the blog outline are also written by rules without one." }),
    available: z.boolean().meta({ description: "Whether a rewrite in this style can be made now: false when it needs a writer and none is set up (then POST …/rewrites answers 409 writer_required)." }),
    created_at: z.iso.datetime().nullable().meta({ description: "null for built-in styles." }),
    updated_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "RewriteStyle" });
export type RewriteStyle = z.output<typeof RewriteStyle>;

export const RewriteStyleList = z
  .object({
    styles: z.array(RewriteStyle).meta({ description: "The built-in styles, then yours (oldest first)." }),
    writer_configured: z.boolean().meta({ description: "Whether a writer is set up (Settings → Writing; WRITER_BASE_URL)." }),
  })
  .meta({ id: "RewriteStyleList" });
export const RewriteStyleResult = z.object({ style: RewriteStyle }).meta({ id: "RewriteStyleResult" });
export const RewriteStyleDeleteResult = z.object({ deleted: RewriteStyle }).meta({ id: "RewriteStyleDeleteResult" });

export const CreateRewriteInput = z
  .strictObject({
    style: z
      .string()
      .min(1, "must not be empty")
      .max(100, "must be at most 100 characters")
      .meta({ description: "A built-in style's id (email, todo_list, meeting_notes, blog_outline, social_post) or the id of one of your styles.", example: "todo_list" }),
  })
  .meta({ id: "CreateRewriteInput" });
export type CreateRewriteInput = z.output<typeof CreateRewriteInput>;

const RewriteTitle = z
  .string()
  .transform((s) => s.normalize("NFC").trim())
  .pipe(z.string().max(REWRITE_TITLE_MAX, `must be at most ${REWRITE_TITLE_MAX} characters`).regex(NAME_CHARS, NAME_CHARS_MESSAGE));
const RewriteText = z
  .string()
  .transform((s) => s.normalize("NFC").replace(/\r\n?/g, "\n"))
  .pipe(z.string().refine((s) => s.trim().length > 0, "must not be empty").pipe(z.string().max(REWRITE_TEXT_MAX, `must be at most ${REWRITE_TEXT_MAX.toLocaleString("en")} characters`)));

export const EditRewriteInput = z
  .strictObject({ title: RewriteTitle.optional(), text: RewriteText.optional() })
  .refine((v) => v.title !== undefined || v.text !== undefined, "give title, text or both")
  .meta({ id: "EditRewriteInput" });
export type EditRewriteInput = z.output<typeof EditRewriteInput>;

export const Rewrite = z
  .object({
    id: z.string(),
    transcription_id: z.string().meta({ description: "The note it was written from (which it never changes)." }),
    style: z.string().meta({ description: "The built-in style's id, or \"custom\" for one of yours." }),
    style_id: z.string().nullable().meta({ description: "Your style's id; null for a built-in style, or once your style is deleted." }),
    style_name: z.string().meta({ description: "The style's name when it was written." }),
    title: z.string(),
    text: z.string().meta({ description: "The rewrite, as plain text (a to-do list as \"- [ ] …\" lines)." }),
    written_by: z.enum(["writer", "local-model", "offline"]).meta({ description: "writer: by the configured model (WRITER_BASE_URL); local-model: by the model on the server itself; offline: by rules on the server, without a model." }),
    offline_reason: z.string().nullable().meta({ description: "Why a writer that is set up did not write it (\"the writer did not answer within 60 s\"); null otherwise." }),
    edited_at: z.iso.datetime().nullable().meta({ description: "When you last edited it; null: as written." }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Rewrite" });
export type Rewrite = z.output<typeof Rewrite>;

export const RewriteResult = z.object({ rewrite: Rewrite }).meta({ id: "RewriteResult" });
export const RewriteDeleteResult = z.object({ deleted: Rewrite }).meta({ id: "RewriteDeleteResult" });
export const RewriteList = z.object({ rewrites: z.array(Rewrite).meta({ description: "Newest first." }) }).meta({ id: "RewriteList" });
