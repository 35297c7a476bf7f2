import { z } from "zod";
import { platformRules, postLength } from "@/lib/channels/platforms.ts";
import { hashtagsFor } from "@/lib/posts/generators/hashtags.ts";
import { generateLocally } from "@/lib/posts/generators/local.ts";
import { THREAD_SEPARATOR, type Count } from "@/lib/posts/generators/platform-rules.ts";
import { noteLanguage } from "@/lib/writer/note-language.ts";
import { unitsOf } from "@/lib/writer/sentences.ts";
import type { GenerationHooks, GenerationInput, GenerationOutput, Generator } from "@/lib/posts/generators/types.ts";
import { TITLE_MAX } from "@/lib/posts/schemas.ts";
import { NUMBERING, postPrompt } from "@/lib/writer/prompts/posts.ts";
import { answerTokens } from "@/lib/writer/prompts/answer-tokens.ts";
import { languageName, termsIn } from "@/lib/writer/prompts/parts.ts";
import { streamWriterObject, writeObject, type WrittenByModel } from "@/lib/writer/writer.ts";

// Posts by the writer (a language model), fitted to the platform by rules: the model is told the
// platform's limit, shape and the preset, and answers in a fixed form (title, posts); hashtags are
// never the model's (the same rules as offline pick them), and a post over its limit is cut between
// sentences. When the writer is missing, down or answers badly twice, the offline writer writes
// the post and the output says so.

const Posts = z.array(z.string()).min(1).max(25).describe("The post; for a thread, each post of it in order, without numbering.");
export const WrittenPost = z.object({
  title: z.string().describe("A short headline in the note's language."),
  posts: Posts,
});
/** A post of a platform without titles: no title in its form, so the model writes none (not even an empty one). */
const UntitledPost = z.object({ posts: Posts });
type WrittenPost = { title?: string; posts: string[] };

const titled = (input: GenerationInput) => input.preset.includeTitle && platformRules(input.platform).titled;

/** The post's prompt (lib/writer/prompts/posts.ts) for this platform, preset and note. */
export function postPromptFor(input: GenerationInput): ReturnType<typeof postPrompt> {
  const { limit, family, counting } = platformRules(input.platform);
  return postPrompt({
    platform: input.platform,
    limit,
    counting,
    thread: input.preset.format === "thread" && limit !== null,
    shape: family === "short" ? "hook" : family === "professional" ? "professional" : "paragraphs",
    inviteReplies: input.preset.inviteReplies !== false,
    titled: titled(input),
    tone: input.preset.tone,
    length: input.preset.length,
    language: languageName(input.body, input.language),
    keep: termsIn((input.terms ?? []).map((t) => t.correct), input.body),
    title: input.title,
    body: input.body,
  });
}

const LENGTH_SHARE: Record<string, number> = { short: 0.4, medium: 0.6, full: 1.2 };
const HEADLINE_CHARS = 100;

/** The longest answer this post needs: its platform's limit, or the share of the note its length asks for. */
function postAnswerTokens(input: GenerationInput): number {
  const { limit } = platformRules(input.platform);
  const fromNote = Math.ceil(input.body.length * (LENGTH_SHARE[input.preset.length] ?? 1.2));
  const single = input.preset.format !== "thread" && limit !== null;
  return answerTokens((single ? Math.min(limit, fromNote) : fromNote) + (titled(input) ? HEADLINE_CHARS : 0));
}

/** Sentences of `text` kept in order while they fit `budget` (never cut; an over-long first one is cut at words). */
function fit(text: string, budget: number, count: Count): string {
  if (count(text) <= budget) return text;
  let out = "";
  for (const unit of unitsOf(text)) {
    const next = out ? `${out} ${unit.text}` : unit.text;
    if (count(next) > budget) break;
    out = next;
  }
  if (out) return out;
  const words = text.split(/\s+/);
  while (words.length > 1 && count(`${words.join(" ")}…`) > budget) words.pop();
  let cut = `${words.join(" ")}…`;
  // One word longer than the post (a link, a run of emoji): cut within it.
  while (count(cut) > budget && cut.length > 1) cut = `${Array.from(cut).slice(0, -2).join("")}…`;
  return cut;
}

/** The model's answer as a post of the platform: limits, numbering, the hashtags the rules choose. */
export function fitPost(input: GenerationInput, written: WrittenPost): GenerationOutput {
  const limit = platformRules(input.platform).limit ?? Number.POSITIVE_INFINITY;
  const count: Count = (s) => postLength(input.platform, s);
  const posts = written.posts.map((p) => p.trim()).filter(Boolean);
  const text = posts.join("\n\n");
  const language = noteLanguage(input.body, input.language);
  const tags = hashtagsFor({ preset: input.preset.hashtags, terms: input.terms ?? [], body: input.body, platform: input.platform, language }, Math.min(limit, 280), count);
  const title = titled(input) && written.title?.trim() ? written.title.trim().replace(/\s+/g, " ") : "";
  const outputTitle = Array.from(title || input.title).slice(0, TITLE_MAX).join("");
  // A thread only when the post does not fit one (issue 69: two 22-character posts were kept as a
  // thread): the model's posts that fit together become one post, a paragraph each.
  if (input.preset.format === "thread" && Number.isFinite(limit) && count([text, tags].filter(Boolean).join("\n\n")) > limit) {
    const budget = limit - NUMBERING;
    const pieces = posts.flatMap((post) => {
      const out: string[] = [];
      let rest = post;
      while (rest && count(rest) > budget) {
        const head = fit(rest, budget, count).replace(/…$/, "");
        out.push(head);
        rest = rest.slice(head.length).trim();
      }
      if (rest) out.push(rest);
      return out;
    });
    if (tags && count(`${pieces.at(-1)}\n\n${tags}`) <= budget) pieces[pieces.length - 1] += `\n\n${tags}`;
    else if (tags) pieces.push(tags);
    const body = pieces.map((p, i) => `${p}\n\n${i + 1}/${pieces.length}`).join(THREAD_SEPARATOR);
    return { title: outputTitle, body };
  }
  const head = title ? `${title}\n\n` : "";
  const room = limit - count(head) - (tags ? count(tags) + 2 : 0);
  const body = head + [fit(text, room, count), tags].filter(Boolean).join("\n\n");
  return { title: outputTitle, body };
}

export type Written = GenerationOutput & { writtenBy: WrittenByModel | "offline"; reason?: string };

/** The post by the writer, or offline with the reason; `onPartial` sees the text as it streams. */
export async function writePost(input: GenerationInput, { onPartial, onStart }: GenerationHooks = {}): Promise<Written> {
  const { system, prompt } = postPromptFor(input);
  const maxTokens = postAnswerTokens(input);
  // The post passes the check every model output passes (lib/writer/check-output.ts): words of
  // the note, in its language, no name, place or number the note does not have.
  const check = {
    what: "post",
    source: [input.title, input.body].join("\n"),
    given: (input.terms ?? []).map((t) => t.correct),
    language: input.language,
    parts: (value: WrittenPost) => [{ name: "title", text: value.title ?? "" }, ...value.posts.map((text) => ({ name: "post", text, required: true }))],
  };
  const schema: z.ZodType<WrittenPost> = titled(input) ? WrittenPost : UntitledPost;
  const purpose = { task: "posts" as const, key: input.noteId ?? null, check };
  const outcome = onPartial
    ? await streamWriterObject({
        schema,
        name: "post",
        system,
        prompt,
        maxTokens,
        onStart,
        onPartial: (partial) => {
          const posts = (partial as Partial<WrittenPost>).posts;
          if (Array.isArray(posts)) onPartial(posts.filter((p) => typeof p === "string").join("\n\n"));
        },
        ...purpose,
      })
    : await writeObject({ schema, name: "post", system, prompt, maxTokens, onStart, ...purpose });
  if (!outcome.ok) return { ...generateLocally(input), writtenBy: "offline", reason: outcome.reason };
  return { ...fitPost(input, outcome.value), writtenBy: outcome.by };
}

export const writerGenerator: Generator = { name: "writer", generate: (input, hooks) => writePost(input, hooks) };
