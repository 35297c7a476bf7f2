import type { Platform } from "@/lib/channels/schemas.ts";
import { TITLE_MAX } from "@/lib/content/schemas.ts";
import { PLATFORM_LIMITS, THREAD_SEPARATOR, length } from "@/lib/content/generators/platform-rules.ts";
import { hashtagsFor } from "@/lib/content/generators/hashtags.ts";
import { rankUnits, unitsOf, type Unit } from "@/lib/content/generators/sentences.ts";
import type { GenerationInput, GenerationOutput, Generator } from "@/lib/content/generators/types.ts";

// The default generator: deterministic, offline, no language model. It is extractive: the note's
// own sentences, ranked (TextRank), the strongest kept in their original order until the
// platform's limit or the preset's length is reached, so no sentence is ever cut. Short platforms
// get the strongest sentence first as a hook and one compact paragraph; long ones keep paragraphs
// and, where posts have titles, the title line. Threads are split between sentences and numbered.

/** At or under this limit a post is one compact paragraph led by its strongest sentence. */
const COMPACT_LIMIT = 500;
const TITLED: ReadonlySet<Platform> = new Set(["linkedin", "facebook", "newsletter", "blog", "other"]);
const SHORT_CHARS = 280;
const NUMBERING = 8; // "\n\n99/99"
const ELLIPSIS = "…";

type Ranked = Unit & { index: number; score: number };

function joinUnits(units: Ranked[], compact: boolean): string {
  let out = "";
  units.forEach((unit, i) => {
    const previous = units[i - 1];
    if (previous) {
      const newParagraph = !compact && unit.paragraph !== previous.paragraph;
      out += newParagraph ? "\n\n" : unit.listItem || previous.listItem ? "\n" : " ";
    }
    out += unit.text;
  });
  return out;
}

/** The chosen units as text: original order; on compact platforms the strongest leads as a hook. */
function render(chosen: Ranked[], compact: boolean): string {
  const ordered = [...chosen].sort((a, b) => a.index - b.index);
  if (!compact || ordered.length < 2) return joinUnits(ordered, compact);
  const hook = chosen.reduce((best, u) => (u.score > best.score ? u : best));
  if (hook === ordered[0]) return joinUnits(ordered, compact);
  return `${hook.text}\n\n${joinUnits(ordered.filter((u) => u !== hook), compact)}`;
}

/** A list is taken whole with the line that introduces it ("What I learned:"), or not at all. */
function blocksOf(units: Ranked[]): Ranked[][] {
  const blocks: Ranked[][] = [];
  units.forEach((unit) => {
    const last = blocks.at(-1);
    const continuesList = unit.listItem && last && (last.at(-1)!.listItem || /:$/.test(last.at(-1)!.text)) && last.at(-1)!.paragraph === unit.paragraph;
    if (continuesList) last.push(unit);
    else blocks.push([unit]);
  });
  return blocks;
}

/**
 * The strongest units whose rendering fits `budget`. A weaker one may fill the room a stronger one
 * did not fit in, but only from the stronger half, so the post is not padded with asides.
 */
function select(units: Ranked[], budget: number, compact: boolean): Ranked[] {
  if (length(joinUnits(units, compact)) <= budget) return units;
  const blocks = blocksOf(units).map((block) => ({ block, score: Math.max(...block.map((u) => u.score)), index: block[0].index }));
  const ranked = blocks.sort((a, b) => b.score - a.score || a.index - b.index);
  const median = ranked[Math.floor((ranked.length - 1) / 2)]?.score ?? 0;
  const chosen: Ranked[] = [];
  for (const { block, score } of ranked) {
    if (chosen.length && score < median) break;
    if (length(render([...chosen, ...block], compact)) <= budget) chosen.push(...block);
  }
  return chosen;
}

/** A unit longer than `max` split at clauses, else words; a word longer than `max` at `max`. */
function pieces(text: string, max: number): string[] {
  if (length(text) <= max) return [text];
  const parts = text.split(/(?<=[,;:–—])\s+|\s+/u).flatMap((part) => {
    const chars = Array.from(part);
    return chars.length <= max ? [part] : Array.from({ length: Math.ceil(chars.length / max) }, (_, i) => chars.slice(i * max, (i + 1) * max).join(""));
  });
  const out: string[] = [];
  for (const part of parts) {
    const last = out.at(-1);
    if (last !== undefined && length(`${last} ${part}`) <= max) out[out.length - 1] = `${last} ${part}`;
    else out.push(part);
  }
  return out;
}

function withTags(text: string, tags: string): string {
  return [text, tags].filter(Boolean).join("\n\n");
}

function singlePost(units: Ranked[], tags: string, budget: number, compact: boolean): string {
  const room = budget - (tags ? length(tags) + 2 : 0);
  const chosen = select(units, room, compact);
  if (chosen.length || !units.length) return withTags(render(chosen, compact), tags);
  // Not even one sentence fits: the strongest one, cut between words (the only cut the generator makes).
  const strongest = [...units].sort((a, b) => b.score - a.score || a.index - b.index)[0];
  return withTags(`${pieces(strongest.text, room - 1)[0]}${ELLIPSIS}`, tags);
}

function thread(units: Ranked[], tags: string, limit: number): string {
  const budget = limit - NUMBERING;
  const posts: string[] = [];
  let current = "";
  let previous: Ranked | undefined;
  for (const unit of units) {
    for (const piece of pieces(unit.text, budget)) {
      const gap = !previous ? "" : unit.paragraph !== previous.paragraph ? "\n\n" : unit.listItem || previous.listItem ? "\n" : " ";
      if (current && length(current + gap + piece) <= budget) current += gap + piece;
      else {
        if (current) posts.push(current);
        current = piece;
      }
      previous = unit;
    }
  }
  if (tags) {
    if (current && length(`${current}\n\n${tags}`) <= budget) current = `${current}\n\n${tags}`;
    else {
      if (current) posts.push(current);
      current = tags;
    }
  }
  if (current) posts.push(current);
  if (posts.length <= 1) return posts[0] ?? "";
  return posts.map((post, i) => `${post}\n\n${i + 1}/${posts.length}`).join(THREAD_SEPARATOR);
}

const normalized = (s: string) => s.toLowerCase().replace(/[…\s]+$/u, "").replace(/\s+/g, " ").trim();

/** The title as a line of its own, unless the platform has no titles or the note opens with it. */
function titleUnit(input: GenerationInput, units: Unit[]): Ranked | null {
  const title = input.title.trim();
  if (!input.preset.includeTitle || !title || !TITLED.has(input.platform)) return null;
  if (units.length && normalized(units[0].text).startsWith(normalized(title))) return null;
  return { text: title, paragraph: -1, listItem: false, index: -1, score: Number.POSITIVE_INFINITY };
}

export function generateLocally(input: GenerationInput): GenerationOutput {
  const limit = PLATFORM_LIMITS[input.platform] ?? Number.POSITIVE_INFINITY;
  const compact = limit <= COMPACT_LIMIT;
  const found = unitsOf(input.body);
  const scores = rankUnits(found);
  const units: Ranked[] = found.map((unit, index) => ({ ...unit, index, score: scores[index] }));
  const title = titleUnit(input, found);
  const tags = hashtagsFor({ preset: input.preset.hashtags, terms: input.terms ?? [], body: input.body, platform: input.platform }, Math.min(limit, SHORT_CHARS));
  const total = length(joinUnits(units, compact));
  // Short: one post's worth (a whole post where posts are short anyway); medium: about half the note.
  const short = compact ? limit : SHORT_CHARS;
  const target = { short, medium: Math.max(short, Math.ceil(total / 2)) }[input.preset.length] ?? Number.POSITIVE_INFINITY;
  let body: string;
  if (input.preset.format === "thread" && Number.isFinite(limit)) {
    const kept = Number.isFinite(target) ? select(units, Math.max(target, limit), false).sort((a, b) => a.index - b.index) : units;
    body = thread(title ? [title, ...kept] : kept, tags, limit);
  } else {
    const titleRoom = title ? length(title.text) + 2 : 0;
    const text = singlePost(units, tags, Math.min(limit, target + (tags ? length(tags) + 2 : 0)) - titleRoom, compact);
    body = title ? `${title.text}\n\n${text}` : text;
  }
  return { title: Array.from(input.title).slice(0, TITLE_MAX).join(""), body };
}

export const localGenerator: Generator = { name: "local", generate: async (input) => generateLocally(input) };
