import { TITLE_MAX } from "@/lib/content/schemas.ts";
import { PLATFORM_LIMITS, THREAD_SEPARATOR, length } from "@/lib/content/generators/platform-rules.ts";
import type { GenerationInput, GenerationOutput, Generator } from "@/lib/content/generators/types.ts";

// The default generator: deterministic and offline. It keeps the author's words and paragraphs,
// picks paragraphs by the preset's length, and fits them to the platform: one post cut at a
// sentence or word boundary, or a thread of numbered posts. Hashtags come last and always fit.

const ELLIPSIS = "…";

function paragraphsOf(text: string): string[] {
  return text
    .split(/\n[ \t]*\n/)
    .map((p) => p.replace(/[ \t]+/g, " ").trim())
    .filter(Boolean);
}

function selectByLength(paragraphs: string[], preset: GenerationInput["preset"]): string[] {
  if (preset.length === "short") return paragraphs.slice(0, 1);
  if (preset.length === "medium") return paragraphs.slice(0, Math.ceil(paragraphs.length / 2));
  return paragraphs;
}

/** The longest start of `text` within `max` code points, cut after a sentence, else a word. */
function cut(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, Math.max(0, max - 1)).join("");
  const sentence = Math.max(head.lastIndexOf(". "), head.lastIndexOf("! "), head.lastIndexOf("? "), head.lastIndexOf("\n"));
  if (sentence >= head.length / 2) return head.slice(0, sentence + 1).trimEnd() + ELLIPSIS;
  const word = head.lastIndexOf(" ");
  return (word > 0 ? head.slice(0, word) : head).trimEnd() + ELLIPSIS;
}

/** Pieces of a paragraph, each at most `max` code points: sentences, then words, then hard cuts. */
function pieces(paragraph: string, max: number): string[] {
  if (length(paragraph) <= max) return [paragraph];
  const units = paragraph.split(/(?<=[.!?])\s+|\s+/);
  const out: string[] = [];
  let current = "";
  for (const unit of units.flatMap((u) => (length(u) <= max ? [u] : chunk(u, max)))) {
    const joined = current ? `${current} ${unit}` : unit;
    if (length(joined) <= max) current = joined;
    else {
      out.push(current);
      current = unit;
    }
  }
  if (current) out.push(current);
  return out;
}

function chunk(word: string, max: number): string[] {
  const chars = Array.from(word);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += max) out.push(chars.slice(i, i + max).join(""));
  return out;
}

function hashtagLine(tags: string[], budget: number): string {
  const kept: string[] = [];
  for (const tag of tags) {
    const next = [...kept, `#${tag}`].join(" ");
    if (length(next) > budget) break;
    kept.push(`#${tag}`);
  }
  return kept.join(" ");
}

function singlePost(paragraphs: string[], tags: string[], limit: number): string {
  const tagLine = hashtagLine(tags, Math.min(limit, 280));
  const reserve = tagLine ? length(tagLine) + 2 : 0;
  const text = cut(paragraphs.join("\n\n"), limit - reserve);
  return [text, tagLine].filter(Boolean).join("\n\n");
}

function thread(paragraphs: string[], tags: string[], limit: number): string {
  const numbering = 8; // "\n\n99/99" fits in 8 code points
  const budget = limit - numbering;
  const posts: string[] = [];
  let current = "";
  for (const piece of paragraphs.flatMap((p) => pieces(p, budget))) {
    const joined = current ? `${current}\n\n${piece}` : piece;
    if (length(joined) <= budget) current = joined;
    else {
      posts.push(current);
      current = piece;
    }
  }
  const tagLine = hashtagLine(tags, budget);
  if (tagLine) {
    if (current && length(`${current}\n\n${tagLine}`) <= budget) current = `${current}\n\n${tagLine}`;
    else {
      if (current) posts.push(current);
      current = tagLine;
    }
  }
  if (current) posts.push(current);
  if (posts.length <= 1) return posts[0] ?? "";
  return posts.map((post, i) => `${post}\n\n${i + 1}/${posts.length}`).join(THREAD_SEPARATOR);
}

export function generateLocally(input: GenerationInput): GenerationOutput {
  const limit = PLATFORM_LIMITS[input.platform] ?? Number.POSITIVE_INFINITY;
  const paragraphs = selectByLength(paragraphsOf(input.body), input.preset);
  if (input.preset.includeTitle && input.title) paragraphs.unshift(input.title);
  const body =
    input.preset.format === "thread" && Number.isFinite(limit)
      ? thread(paragraphs, input.preset.hashtags, limit)
      : singlePost(paragraphs, input.preset.hashtags, limit);
  return { title: Array.from(input.title).slice(0, TITLE_MAX).join(""), body };
}

export const localGenerator: Generator = { name: "local", generate: async (input) => generateLocally(input) };
