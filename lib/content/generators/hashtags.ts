import type { Platform } from "@/lib/channels/schemas.ts";
import { length } from "@/lib/content/generators/platform-rules.ts";

// Hashtags: the preset's own, then the user's dictionary terms that the note mentions ("Kubernetes",
// "machine learning" → #MachineLearning): the words they care enough about to teach the recognizer.
const MAX_TAGS: Partial<Record<Platform, number>> = { instagram: 10, x: 3, bluesky: 3, threads: 3, mastodon: 4 };
const DEFAULT_MAX_TAGS = 5;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function tagOf(term: string): string {
  const words = term.normalize("NFC").split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  if (words.length === 1) return words[0];
  return words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

function mentioned(term: string, body: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escape(term)}(?![\\p{L}\\p{N}])`, "iu").test(body);
}

/** One line of #tags within `budget` code points; the preset's come first. */
export function hashtagsFor({ preset, terms, body, platform }: { preset: string[]; terms: string[]; body: string; platform: Platform }, budget: number): string {
  const seen = new Set<string>();
  const tags: string[] = [];
  const candidates = [...preset, ...terms.filter((term) => mentioned(term, body)).map(tagOf)];
  for (const tag of candidates) {
    const key = tag.toLowerCase();
    if (!/^[\p{L}\p{N}_]{2,50}$/u.test(tag) || /^\p{N}+$/u.test(tag) || seen.has(key)) continue;
    if (tags.length >= (MAX_TAGS[platform] ?? DEFAULT_MAX_TAGS) && !preset.includes(tag)) continue;
    if (length([...tags, tag].map((t) => `#${t}`).join(" ")) > budget) break;
    seen.add(key);
    tags.push(tag);
  }
  return tags.map((t) => `#${t}`).join(" ");
}
