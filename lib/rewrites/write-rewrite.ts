import { z } from "zod";
import { ApiError } from "@/lib/http/errors.ts";
import { oneLineName } from "@/lib/http/names.ts";
import type { Insights } from "@/lib/insights/schemas.ts";
import { writeOffline, type Draft } from "@/lib/rewrites/offline-rewrites.ts";
import { REWRITE_TEXT_MAX, REWRITE_TITLE_MAX, type BuiltInStyleId } from "@/lib/rewrites/schemas.ts";
import { answerTokens } from "@/lib/writer/prompts/answer-tokens.ts";
import { languageName, termsIn } from "@/lib/writer/prompts/parts.ts";
import { rewritePrompt } from "@/lib/writer/prompts/rewrites.ts";
import { writeObject, type WrittenByModel } from "@/lib/writer/writer.ts";

// One rewrite of a note in one style: by the writer when one is set up, else (or when it fails) by
// rules where rules can write the style. A style only a writer can write is refused with a stable
// code: writer_required (none set up) or writer_failed (it failed, with the reason).

export const WrittenRewrite = z.object({
  title: z.string().describe("A short title for the rewrite, in the note's language."),
  text: z.string().describe("The rewrite itself, as plain text with line breaks; lists as lines starting with \"- \"."),
});

export type RewriteStyleSpec = {
  /** The built-in style's id, or "custom". */
  style: BuiltInStyleId | "custom";
  name: string;
  instructions: string;
};

export type RewriteSource = { noteId?: string; text: string; language: string; title: string | null; insights: Insights; terms: string[] };

export type WrittenDraft = Draft & { writtenBy: WrittenByModel | "offline"; reason: string | null };

// A title is held to what a typed one may be (EditRewriteInput): a model's may hold a NUL or a
// right-to-left override too (issue 66).
const clean = (draft: Draft): Draft => ({
  title: Array.from(oneLineName(draft.title)).slice(0, REWRITE_TITLE_MAX).join("").trim(),
  text: draft.text.replace(/\r\n?/g, "\n").trim().slice(0, REWRITE_TEXT_MAX),
});

export async function writeRewrite(style: RewriteStyleSpec, source: RewriteSource): Promise<WrittenDraft> {
  const { system, prompt } = rewritePrompt({
    name: style.name,
    instructions: style.style === "custom" ? `The author's instructions for this style: ${style.instructions}` : style.instructions,
    language: languageName(source.text, source.language),
    keep: termsIn(source.terms, source.text),
    title: source.title,
    text: source.text,
  });
  // A rewrite says what the note says: about as long as it, with a title.
  const maxTokens = answerTokens(Math.ceil(source.text.length * 1.2) + REWRITE_TITLE_MAX);
  // Its title and text pass the check every model output passes (lib/writer/check-output.ts).
  const check = {
    what: "rewrite",
    source: source.text,
    given: [source.title ?? "", style.name, style.instructions, source.insights.title, ...source.terms],
    language: source.language,
    // A style of the person's own may ask for another language: its answer is not held to the note's.
    writeIn: style.style === "custom" ? null : undefined,
    parts: (value: z.output<typeof WrittenRewrite>) => [{ name: "title", text: value.title }, { name: "rewrite", text: value.text, required: true }],
  };
  const written = await writeObject({ schema: WrittenRewrite, name: "rewrite", system, prompt, maxTokens, task: "rewrites", key: source.noteId, check });
  if (written.ok) {
    const draft = clean(written.value);
    return { ...draft, title: draft.title || source.insights.title, writtenBy: written.by, reason: null };
  }
  const failure = written;
  const offline = style.style === "custom" ? null : writeOffline(style.style, source.insights, source.language);
  const reason = failure.kind === "unconfigured" ? null : failure.reason;
  if (offline) return { ...clean(offline), writtenBy: "offline", reason };
  if (style.style === "todo_list" || style.style === "blog_outline") {
    throw new ApiError(
      "nothing_to_rewrite",
      style.style === "todo_list"
        ? "The note commits to nothing (it has no action items), so there is no to-do list to make; try another style."
        : "The note is too short for an outline; try another style.",
    );
  }
  if (failure.kind === "unconfigured") {
    throw new ApiError("writer_required", `"${style.name}" needs a writer (a language model); set one up in Settings → Writing, or pick the to-do list or blog outline.`);
  }
  throw new ApiError("writer_failed", `The writer could not write "${style.name}": ${failure.reason}. Try again in a moment.`);
}
