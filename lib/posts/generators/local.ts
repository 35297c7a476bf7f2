import { platformFamily, platformRules, postLength } from "@/lib/channels/platforms.ts";
import { TITLE_MAX } from "@/lib/posts/schemas.ts";
import { THREAD_SEPARATOR, type Count } from "@/lib/posts/generators/platform-rules.ts";
import { hashtagsFor } from "@/lib/posts/generators/hashtags.ts";
import { inviteRepliesLine } from "@/lib/posts/generators/invite-replies.ts";
import { titleOf } from "@/lib/writer/note-title.ts";
import { noteLanguage } from "@/lib/writer/note-language.ts";
import { rankUnits, unitsOf, withoutRepeats, type Unit } from "@/lib/writer/sentences.ts";
import type { GenerationInput, GenerationOutput, Generator } from "@/lib/posts/generators/types.ts";

// The default generator: deterministic, offline, no language model. It is extractive: the note's
// own sentences, ranked (TextRank), the strongest kept until the platform's limit or the preset's
// length is reached, so no sentence is ever cut. Each family of platforms gets its own shape:
// short (X, Bluesky, Threads, Mastodon): the hook sentence first, one compact paragraph, at most
// two hashtags; professional (LinkedIn, Facebook): a hook line, one idea per short paragraph and a
// line inviting replies; long (newsletter, blog): a title line made of the note's key phrase, then
// its paragraphs. Threads are split between sentences and numbered.

// Every length is counted as the platform counts it (lib/channels/platforms.ts: X's weighted
// length, Bluesky's graphemes, …), through `count`.
type Layout = "compact" | "paragraphs" | "professional";

/** At or under this limit a post is one compact paragraph led by its strongest sentence. */
const COMPACT_LIMIT = 500;
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

/** How quotable a sentence is as a hook: its rank, then a sentence of 6–25 words, a number, a "!" or "?". */
function hookScore(unit: Ranked): number {
  const words = unit.text.split(/\s+/).length;
  return unit.score + (words >= 6 && words <= 25 ? 0.1 : 0) + (/\p{N}/u.test(unit.text) ? 0.05 : 0) + (/[!?]$/u.test(unit.text) ? 0.05 : 0);
}

const hookOf = (units: Ranked[]) => units.filter((u) => !u.listItem).reduce<Ranked | undefined>((best, u) => (!best || hookScore(u) > hookScore(best) ? u : best), undefined);

/** One idea per short paragraph: at most two sentences each; a list stays with its lead-in line. */
function shortParagraphs(units: Ranked[]): string {
  const paragraphs: string[][] = [];
  let sentences = 0;
  units.forEach((unit, i) => {
    const previous = units[i - 1];
    const current = paragraphs.at(-1);
    if (current && (unit.listItem || /:$/.test(previous.text)) && previous.paragraph === unit.paragraph && (previous.listItem || /:$/.test(previous.text))) {
      current[current.length - 1] += `\n${unit.text}`;
    } else if (current && !previous.listItem && previous.paragraph === unit.paragraph && sentences < 2) {
      current.push(unit.text);
      sentences += 1;
    } else {
      paragraphs.push([unit.text]);
      sentences = 1;
    }
  });
  return paragraphs.map((p) => p.join(" ")).join("\n\n");
}

/** The chosen units as text in the family's layout; compact and professional posts lead with the hook. */
function render(chosen: Ranked[], layout: Layout): string {
  const compact = layout === "compact";
  const ordered = [...chosen].sort((a, b) => a.index - b.index);
  if (layout === "paragraphs" || ordered.length < 2) return joinUnits(ordered, compact);
  const hook = hookOf(chosen) ?? ordered[0];
  const rest = ordered.filter((u) => u !== hook);
  if (layout === "professional") return `${hook.text}\n\n${shortParagraphs(rest)}`;
  if (hook === ordered[0]) return joinUnits(ordered, compact);
  return `${hook.text}\n\n${joinUnits(rest, compact)}`;
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
function select(units: Ranked[], budget: number, layout: Layout, count: Count): Ranked[] {
  if (count(render(units, layout)) <= budget) return units;
  const blocks = blocksOf(units).map((block) => ({ block, score: Math.max(...block.map((u) => u.score)), index: block[0].index }));
  const ranked = blocks.sort((a, b) => b.score - a.score || a.index - b.index);
  const median = ranked[Math.floor((ranked.length - 1) / 2)]?.score ?? 0;
  const chosen: Ranked[] = [];
  for (const { block, score } of ranked) {
    if (chosen.length && score < median) break;
    if (count(render([...chosen, ...block], layout)) <= budget) chosen.push(...block);
  }
  return chosen;
}

/** A unit longer than `max` split at clauses, else words; a word longer than `max` at `max`. */
function pieces(text: string, max: number, count: Count): string[] {
  if (count(text) <= max) return [text];
  const parts = text.split(/(?<=[,;:–—])\s+|\s+/u).flatMap((part) => (count(part) <= max ? [part] : cutWord(part, max, count)));
  const out: string[] = [];
  for (const part of parts) {
    const last = out.at(-1);
    if (last !== undefined && count(`${last} ${part}`) <= max) out[out.length - 1] = `${last} ${part}`;
    else out.push(part);
  }
  return out;
}

/** A word longer than `max` in pieces of at most `max` (a long link, a run of emoji). */
function cutWord(word: string, max: number, count: Count): string[] {
  const out: string[] = [];
  let current = "";
  for (const char of word) {
    if (current && count(current + char) > max) {
      out.push(current);
      current = "";
    }
    current += char;
  }
  if (current) out.push(current);
  return out;
}

/** The post's lines after its text: the closing line, then the tags. */
function withEnding(text: string, ending: string[]): string {
  return [text, ...ending].filter(Boolean).join("\n\n");
}

const endingLength = (ending: string[], count: Count) => ending.reduce((sum, line) => sum + (line ? count(line) + 2 : 0), 0);

/** The post within `budget` (the preset's length) if a sentence fits it, else the strongest sentence that fits `limit`. */
function singlePost(units: Ranked[], ending: string[], budget: number, limit: number, layout: Layout, count: Count): string {
  const room = budget - endingLength(ending, count);
  const chosen = select(units, room, layout, count);
  if (chosen.length || !units.length) return withEnding(render(chosen, layout), ending);
  const byStrength = [...units].sort((a, b) => b.score - a.score || a.index - b.index);
  const whole = byStrength.find((unit) => count(unit.text) <= limit - endingLength(ending, count));
  if (whole) return withEnding(whole.text, ending);
  // Not even one sentence fits the platform: the strongest one, cut between words (the only cut the generator makes).
  return withEnding(`${pieces(byStrength[0].text, limit - endingLength(ending, count) - count(ELLIPSIS), count)[0]}${ELLIPSIS}`, ending);
}

function thread(units: Ranked[], tags: string, limit: number, count: Count): string {
  const budget = limit - NUMBERING;
  const posts: string[] = [];
  let current = "";
  let previous: Ranked | undefined;
  for (const unit of units) {
    for (const piece of pieces(unit.text, budget, count)) {
      const gap = !previous ? "" : unit.paragraph !== previous.paragraph ? "\n\n" : unit.listItem || previous.listItem ? "\n" : " ";
      if (current && count(current + gap + piece) <= budget) current += gap + piece;
      else {
        if (current) posts.push(current);
        current = piece;
      }
      previous = unit;
    }
  }
  if (tags) {
    if (current && count(`${current}\n\n${tags}`) <= budget) current = `${current}\n\n${tags}`;
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
/** Only the words, so a title of the note's first words matches across its sentence ends. */
const words = (s: string) => normalized(s).replace(/[^\p{L}\p{N}]+/gu, " ").trim();

/**
 * The title as a line of its own, where posts have titles. A title that is how the note opens (the
 * master's title is often its first words) says nothing: newsletters and blogs get the note's key
 * phrase instead, other platforms no title line.
 */
function titleUnit(input: GenerationInput, units: Unit[], language: string | null): Ranked | null {
  const given = input.title.trim();
  if (!input.preset.includeTitle || !platformRules(input.platform).titled) return null;
  const opensNote = !given || words(input.body).startsWith(words(given));
  // The note's own title, never how the post opens anyway (a title line would repeat it).
  const own = platformFamily(input.platform) === "long" && units.length ? titleOf(input.body, language, { notOpening: true }) : null;
  const title = !opensNote ? given : own && !words(input.body).startsWith(words(own)) ? own : null;
  return title ? { text: title, paragraph: -1, listItem: false, index: -1, score: Number.POSITIVE_INFINITY } : null;
}

export function generateLocally(input: GenerationInput): GenerationOutput {
  const limit = platformRules(input.platform).limit ?? Number.POSITIVE_INFINITY;
  const count: Count = (text) => postLength(input.platform, text);
  const compact = limit <= COMPACT_LIMIT;
  const family = platformFamily(input.platform);
  const layout: Layout = compact ? "compact" : family === "professional" ? "professional" : "paragraphs";
  const language = noteLanguage(input.body, input.language);
  // A sentence said twice is posted once (and would rank twice: a short post would take both).
  const found = withoutRepeats(unitsOf(input.body, language ?? undefined));
  const scores = rankUnits(found);
  const units: Ranked[] = found.map((unit, index) => ({ ...unit, index, score: scores[index] }));
  const title = titleUnit(input, found, language);
  const source = { preset: input.preset.hashtags, terms: input.terms ?? [], body: input.body, platform: input.platform, language };
  const tags = hashtagsFor(source, Math.min(limit, SHORT_CHARS), count);
  const invite = family === "professional" && input.preset.inviteReplies !== false && units.length ? inviteRepliesLine(input.body, language) : null;
  const total = count(joinUnits(units, compact));
  // Short: one post's worth (a whole post where posts are short anyway); medium: about half the note.
  const short = compact ? limit : SHORT_CHARS;
  const target = { short, medium: Math.max(short, Math.ceil(total / 2)) }[input.preset.length] ?? Number.POSITIVE_INFINITY;
  let body: string;
  if (input.preset.format === "thread" && Number.isFinite(limit)) {
    const kept = Number.isFinite(target) ? select(units, Math.max(target, limit), "paragraphs", count).sort((a, b) => a.index - b.index) : units;
    const closing: Ranked[] = invite ? [{ text: invite, paragraph: Number.MAX_SAFE_INTEGER, listItem: false, index: units.length, score: 0 }] : [];
    body = thread([...(title ? [title] : []), ...kept, ...closing], tags, limit, count);
  } else {
    const ending = [tags, invite ?? ""];
    const titleRoom = title ? count(title.text) + 2 : 0;
    const text = singlePost(units, ending, Math.min(limit, target + endingLength(ending, count)) - titleRoom, limit - titleRoom, layout, count);
    body = title ? `${title.text}\n\n${text}` : text;
  }
  // The post's title is its title line where it has one (a newsletter's card shows it as the heading, issue 69).
  return { title: Array.from(title?.text ?? input.title).slice(0, TITLE_MAX).join(""), body };
}

export const localGenerator: Generator = { name: "local", generate: async (input) => generateLocally(input) };
