// The offline writer's corpus (tests/fixtures/notes/corpus.json) and the checks both its table
// tests and `npm run bench:writer` make on every post: within the limit, no sentence cut, texts
// distinct per platform family, no everyday word as a hashtag, no title that is the note's opening.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PLATFORMS, type Platform } from "@/lib/channels/schemas.ts";
import { PLATFORM_RULES, platformFamily, postLength } from "@/lib/channels/platforms.ts";
import { isEverydayWord } from "@/lib/dictionary/common-words.ts";
import { generateLocally } from "@/lib/posts/generators/local.ts";
import { INVITE_LINES } from "@/lib/posts/generators/invite-replies.ts";
import { splitPosts } from "@/lib/posts/generators/platform-rules.ts";
import { unitsOf } from "@/lib/writer/sentences.ts";
import type { GenerationOutput, GenerationTerm, GeneratorPreset } from "@/lib/posts/generators/types.ts";

export type CorpusNote = { id: string; language: string; text: string; dictionary?: GenerationTerm[]; expect_tags?: string[]; never_tags?: string[] };

const FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/notes/corpus.json");
export const loadCorpus = (): CorpusNote[] => (JSON.parse(readFileSync(FILE, "utf8")) as { notes: CorpusNote[] }).notes;

/** The preset a channel of this platform starts with (what most posts are written in). */
export const defaultPreset = (platform: Platform, overrides: Partial<GeneratorPreset> = {}): GeneratorPreset => ({
  tone: "neutral",
  hashtags: [],
  inviteReplies: true,
  ...PLATFORM_RULES[platform].defaultPreset.generator,
  ...overrides,
});

/** The note's first words as a title would be made of them (a master's default title). */
const firstWords = (text: string) => text.split(/\s+/).slice(0, 8).join(" ");

export function writeNote(note: CorpusNote, platform: Platform, overrides: Partial<GeneratorPreset> = {}): GenerationOutput {
  return generateLocally({ title: firstWords(note.text), body: note.text, platform, preset: defaultPreset(platform, overrides), terms: note.dictionary ?? [], language: note.language });
}

const NUMBERING = /\n\n\d+\/\d+$/;
const TAG_LINE = /(?:^|\n\n)((?:#[\p{L}\p{N}_]+ ?)+)$/u;
const fold = (s: string) => s.normalize("NFC").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();

const withoutInvite = (text: string) => INVITE_LINES.reduce((t, line) => (t.endsWith(line) ? t.slice(0, -line.length).trim() : t), text);

export const hashtagsOf = (body: string): string[] =>
  splitPosts(body).flatMap((post) => TAG_LINE.exec(withoutInvite(post.replace(NUMBERING, "").trim()))?.[1].trim().split(" ").map((t) => t.slice(1)) ?? []);

/** Each post's own words: without numbering, tags, closing line and (first post) title line. */
function proseOf(body: string, title: string | null): string[] {
  return splitPosts(body).map((post, i) => {
    let text = post.replace(NUMBERING, "").replace(TAG_LINE, "").trim();
    text = withoutInvite(text).replace(TAG_LINE, "").trim();
    if (i === 0 && title && text.startsWith(`${title}\n\n`)) text = text.slice(title.length + 2);
    return text;
  });
}

/** The title line of a long-form post, if it has one: a first paragraph that is not the note's own sentences. */
export function titleLineOf(note: CorpusNote, body: string): string | null {
  if (!body.includes("\n\n")) return null;
  const first = body.split("\n\n")[0];
  const sentences = new Set(unitsOf(note.text, note.language).map((u) => u.text));
  return first.startsWith("#") || unitsOf(first, note.language).every((u) => sentences.has(u.text)) ? null : first;
}

export type PostCheck = {
  withinLimit: boolean;
  /** Every sentence of the post is one of the note's sentences, whole (the last-resort cut aside). */
  sentencesWhole: boolean;
  everydayTags: string[];
  titleIsOpening: boolean;
};

export function checkPost(note: CorpusNote, platform: Platform, out: GenerationOutput): PostCheck {
  const limit = PLATFORM_RULES[platform].limit ?? Number.POSITIVE_INFINITY;
  const length = (text: string) => postLength(platform, text);
  const sentences = new Set(unitsOf(note.text, note.language).map((u) => u.text));
  const title = platformFamily(platform) === "long" ? titleLineOf(note, out.body) : null;
  const prose = proseOf(out.body, title);
  // What is left of the post once every note sentence is taken out must be blank: no part-sentence.
  // A thread may split a sentence longer than a post between posts (read across them), and a
  // single post may cut one when no sentence fits at all: the generator's only cut, marked "…".
  const longest = [...sentences].sort((a, b) => length(b) - length(a));
  const noneFits = longest.every((sentence) => length(sentence) > limit);
  const rest = longest.reduce((text, sentence) => text.split(sentence).join("\n"), prose.join(" "));
  const lastResort = noneFits && /…$/u.test(rest.trim()) && longest.some((sentence) => sentence.startsWith(rest.trim().slice(0, -1)));
  const sentencesWhole = !rest.trim() || lastResort;
  return {
    withinLimit: splitPosts(out.body).every((post) => length(post) <= limit),
    sentencesWhole,
    everydayTags: hashtagsOf(out.body).filter((tag) => isEverydayWord(tag, note.language)),
    titleIsOpening: title !== null && fold(note.text).startsWith(fold(title)),
  };
}

export type FamilyText = { platform: Platform; family: string; text: string };

/** The note's post on every platform of the three families, whitespace-folded. */
export function familyTexts(note: CorpusNote): FamilyText[] {
  return PLATFORMS.filter((platform) => platformFamily(platform) !== "other").map((platform) => ({
    platform,
    family: platformFamily(platform),
    text: writeNote(note, platform).body.replace(/\s+/g, " ").trim(),
  }));
}

/** Pairs of platforms of different families that got the same text. */
export function sameAcrossFamilies(texts: FamilyText[]): [Platform, Platform][] {
  const same: [Platform, Platform][] = [];
  texts.forEach((a, i) => texts.slice(i + 1).forEach((b) => a.family !== b.family && a.text === b.text && same.push([a.platform, b.platform])));
  return same;
}
