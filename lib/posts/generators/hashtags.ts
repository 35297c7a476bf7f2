import { platformRules, type Platform } from "@/lib/channels/platforms.ts";
import { isEverydayPhrase, isEverydayWord } from "@/lib/dictionary/common-words.ts";
import type { Count } from "@/lib/posts/generators/platform-rules.ts";
import type { GenerationTerm } from "@/lib/posts/generators/types.ts";
import { mentions } from "@/lib/writer/prompts/parts.ts";

// Hashtags come only from three places: the preset's own; the names in the user's dictionary that
// the note mentions (an entry whose correct spelling replaces no everyday word: "cooper netties" →
// Kubernetes is a name, "my" → Mighty a wording the recognizer got wrong); and capitalised names
// that recur in the note. Never an everyday word: "#Mighty" from "my" was the bug that set this rule.
// Never a person: a name is not a topic ("#Priya #Marcus", issue 69). A person is told by what the
// note says they do (Priya says, wants, will ask; call Marcus, pair with Marcus) — people do these,
// products and companies rarely — since no list of first names would be complete.
// How many a platform takes is its row of lib/channels/platforms.ts: on short platforms the cap
// holds for the preset's tags too (strict); elsewhere a preset may ask for more.

function tagOf(term: string): string {
  const words = term.normalize("NFC").split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  if (words.length === 1) return words[0];
  return words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

/** A dictionary entry that names something: neither side is everyday wording. */
export function isNameEntry(term: GenerationTerm, language: string | null): boolean {
  return !isEverydayPhrase(term.misspelling, language) && !isEverydayPhrase(term.correct, language) && /\p{L}/u.test(term.correct);
}

/** Capitalised words that occur at least twice, at least once inside a sentence (so not capitalised only as an opener). */
export function recurringNames(body: string, language: string | null): string[] {
  const counts = new Map<string, { word: string; count: number; inside: boolean }>();
  for (const match of body.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (!/^\p{Lu}/u.test(word) || word.length < 2 || isEverydayWord(word, language)) continue;
    const before = body.slice(Math.max(0, match.index - 3), match.index);
    const atStart = match.index === 0 || /(?:[.!?…:]\s*|\n\s*|[-*•]\s+)$/u.test(before);
    const seen = counts.get(word) ?? { word, count: 0, inside: false };
    seen.count += 1;
    seen.inside ||= !atStart;
    counts.set(word, seen);
  }
  return [...counts.values()].filter((c) => c.count >= 2 && c.inside).map((c) => c.word);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const ADVERB = "(?:also|still|just|really|never|always|already|then|now|even|probably)\\s+";
// What a person does, said right after their name: "Priya says", "Marco will ask", "Anna also wants".
const DOES =
  "(?:says|said|thinks|thought|wants|wanted|asks|asked|tells|told|agrees|agreed|suggests|suggested|mentions|mentioned|promised|replied|feels|felt|" +
  "believes|knows|knew|likes|loves|found|needs|is\\s+finishing|is\\s+out|is\\s+back|and\\s+I|" +
  "(?:will|would|can|should|could|must)\\s+(?:ask|call|tell|email|text|meet|send|review|talk|think|decide|say|help|join|present|pair|check|look)|" +
  "sagt|meint|fragt|dice|dijo|quiere|dit|veut|pense)";
// What one does to a person, said right before their name: "call Marcus", "pair with Priya", "thanks Anna".
const TO_PERSON = new RegExp(`\\b(?:(?:call|ask|tell|email|text|meet|ping|thank|thanks|remind|told|asked|met|called|emailed|texted|thanked|reminded|hi|hey|dear|cc)\\s+|(?:pair|talk|spoke|speak|talked|meeting|sync|chat)\\s+(?:with|to)\\s+)$`, "iu");

/** Whether the note speaks of `name` as a person (see the rule above). */
export function isPerson(body: string, name: string): boolean {
  const after = new RegExp(`(?<![\\p{L}\\p{N}])${escape(name)}\\s+(?:${ADVERB})?${DOES}(?![\\p{L}])`, "u");
  if (after.test(body)) return true;
  for (const match of body.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${escape(name)}(?![\\p{L}\\p{N}])`, "gu"))) {
    if (TO_PERSON.test(body.slice(Math.max(0, match.index - 24), match.index))) return true;
  }
  return false;
}

export type HashtagSource = { preset: string[]; terms: GenerationTerm[]; body: string; platform: Platform; language: string | null };

/** The candidate tags in order: the preset's, dictionary names, recurring names; everyday words left out. */
export function hashtagCandidates({ preset, terms, body, language }: HashtagSource): string[] {
  const names = terms.filter((t) => isNameEntry(t, language) && mentions(body, t.correct) && !isPerson(body, t.correct)).map((t) => tagOf(t.correct));
  // A correct spelling that stands in for everyday wording ("my" → Mighty) is no name, however often it recurs.
  const wording = new Set(terms.filter((t) => !isNameEntry(t, language)).map((t) => t.correct.toLowerCase()));
  const recurring = recurringNames(body, language).filter((word) => !wording.has(word.toLowerCase()));
  const found = [...names, ...recurring].filter((tag) => !isEverydayWord(tag, language) && !isPerson(body, tag));
  return [...preset, ...found];
}

/** One line of #tags within `budget`, as `count` counts (the platform's way); the preset's come first. */
export function hashtagsFor(source: HashtagSource, budget: number, count: Count): string {
  const seen = new Set<string>();
  const tags: string[] = [];
  const { max, strict } = platformRules(source.platform).hashtags;
  for (const tag of hashtagCandidates(source)) {
    const key = tag.toLowerCase();
    if (!/^[\p{L}\p{N}_]{2,50}$/u.test(tag) || /^\p{N}+$/u.test(tag) || seen.has(key)) continue;
    if (tags.length >= max && (strict || !source.preset.includes(tag))) continue;
    if (count([...tags, tag].map((t) => `#${t}`).join(" ")) > budget) break;
    seen.add(key);
    tags.push(tag);
  }
  return tags.map((t) => `#${t}`).join(" ");
}
