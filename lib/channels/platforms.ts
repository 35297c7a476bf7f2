import twitterText from "twitter-text";

// Where a channel posts, and everything the app knows of each platform, in one table: its label,
// its limit and how the platform counts it, its family (the shape of its posts), whether its posts
// take a title, how many hashtags it takes, and the preset a channel starts with. The offline
// writer, the model's prompt, the validator and the count on screen all read it, so none of them
// counts a platform's length its own way (X counts by its own rule, not in code points).

export const PLATFORMS = ["linkedin", "x", "threads", "bluesky", "mastodon", "instagram", "facebook", "newsletter", "blog", "other"] as const;
export type Platform = (typeof PLATFORMS)[number];

/**
 * How a platform counts a post's length:
 * - `x`: X's own rules (twitter-text's weightedLength): a link is 23, an emoji or a CJK character 2;
 * - `graphemes`: what a reader sees as one character (Bluesky: Intl.Segmenter), an emoji with its skin tone one;
 * - `mastodon`: code points, each link 23 (Mastodon's rule, whatever the link's length);
 * - `code points`: the rest (Threads, Instagram, LinkedIn, Facebook).
 */
export type Counting = "x" | "graphemes" | "mastodon" | "code points";
/** The shape of its posts: short (a hook and one paragraph), professional (a hook, short paragraphs, a question), long (a title and paragraphs). */
export type PlatformFamily = "short" | "professional" | "long" | "other";

// The preset a channel starts with (the app preselects it; any preset can be chosen). Its generator
// settings are repeated here so the generator's tests need no database (a unit test keeps them
// equal to what the migrations seed).
export type DefaultPreset = { id: string; generator: { length: "short" | "medium" | "full"; format: "single" | "thread"; includeTitle: boolean } };
const STANDARD: DefaultPreset = { id: "builtin-standard", generator: { length: "full", format: "single", includeTitle: false } };
const SHORT: DefaultPreset = { id: "builtin-short", generator: { length: "short", format: "single", includeTitle: false } };
const THREAD: DefaultPreset = { id: "builtin-thread", generator: { length: "full", format: "thread", includeTitle: false } };
const ARTICLE: DefaultPreset = { id: "builtin-article", generator: { length: "full", format: "single", includeTitle: true } };
const CAPTION: DefaultPreset = { id: "builtin-caption", generator: { length: "medium", format: "single", includeTitle: false } };

export type PlatformRules = {
  label: string;
  /** Its length limit, as it counts it; null: none that matters (newsletter, blog, other). */
  limit: number | null;
  counting: Counting;
  family: PlatformFamily;
  /** Whether its posts may start with a title line (when the preset asks for one). */
  titled: boolean;
  /** At most this many hashtags; `strict`: the preset's own count against it too. */
  hashtags: { max: number; strict: boolean };
  defaultPreset: DefaultPreset;
};

export const PLATFORM_RULES: Readonly<Record<Platform, PlatformRules>> = {
  // X: a single post when the note fits in one, a numbered thread only when it does not.
  x: { label: "X", limit: 280, counting: "x", family: "short", titled: false, hashtags: { max: 2, strict: true }, defaultPreset: THREAD },
  bluesky: { label: "Bluesky", limit: 300, counting: "graphemes", family: "short", titled: false, hashtags: { max: 2, strict: true }, defaultPreset: SHORT },
  threads: { label: "Threads", limit: 500, counting: "code points", family: "short", titled: false, hashtags: { max: 2, strict: true }, defaultPreset: SHORT },
  mastodon: { label: "Mastodon", limit: 500, counting: "mastodon", family: "short", titled: false, hashtags: { max: 2, strict: true }, defaultPreset: SHORT },
  instagram: { label: "Instagram", limit: 2200, counting: "code points", family: "other", titled: false, hashtags: { max: 10, strict: false }, defaultPreset: CAPTION },
  linkedin: { label: "LinkedIn", limit: 3000, counting: "code points", family: "professional", titled: true, hashtags: { max: 5, strict: false }, defaultPreset: STANDARD },
  facebook: { label: "Facebook", limit: 63_206, counting: "code points", family: "professional", titled: true, hashtags: { max: 5, strict: false }, defaultPreset: STANDARD },
  newsletter: { label: "Newsletter", limit: null, counting: "code points", family: "long", titled: true, hashtags: { max: 5, strict: false }, defaultPreset: ARTICLE },
  blog: { label: "Blog", limit: null, counting: "code points", family: "long", titled: true, hashtags: { max: 5, strict: false }, defaultPreset: ARTICLE },
  other: { label: "Other", limit: null, counting: "code points", family: "other", titled: true, hashtags: { max: 5, strict: false }, defaultPreset: STANDARD },
};

export const platformRules = (platform: Platform): PlatformRules => PLATFORM_RULES[platform];
export const platformFamily = (platform: Platform): PlatformFamily => PLATFORM_RULES[platform].family;
export const defaultPresetId = (platform: Platform): string => PLATFORM_RULES[platform].defaultPreset.id;
/** The platform's name as people write it; an id the app does not know, as it is. */
export const platformLabel = (platform: string): string => PLATFORM_RULES[platform as Platform]?.label ?? platform;

const LINK_WEIGHT = 23;
let graphemes: Intl.Segmenter | undefined;

/** A post's length as its platform counts it (see Counting). */
export function postLength(platform: Platform, text: string): number {
  switch (PLATFORM_RULES[platform].counting) {
    case "x":
      return twitterText.parseTweet(text).weightedLength;
    case "graphemes": {
      graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
      let n = 0;
      for (const _ of graphemes.segment(text)) n++;
      return n;
    }
    case "mastodon": {
      let n = Array.from(text).length;
      for (const { url } of twitterText.extractUrlsWithIndices(text)) n += LINK_WEIGHT - Array.from(url).length;
      return n;
    }
    default:
      return Array.from(text).length;
  }
}

/** Whether a post is within its platform's limit, as the platform counts it. */
export const fitsPlatform = (platform: Platform, text: string): boolean => {
  const { limit } = PLATFORM_RULES[platform];
  return limit === null || postLength(platform, text) <= limit;
};

/**
 * The platform's own compose page with `text` filled in, where it has one (its web intent): X,
 * Bluesky, Threads. Mastodon's is per server, LinkedIn's takes a link, not text: none.
 */
export function composeUrl(platform: Platform, text: string): string | null {
  const base = COMPOSE_PAGES[platform];
  return base ? `${base}${encodeURIComponent(text)}` : null;
}
const COMPOSE_PAGES: Partial<Record<Platform, string>> = {
  x: "https://x.com/intent/post?text=",
  bluesky: "https://bsky.app/intent/compose?text=",
  threads: "https://www.threads.net/intent/post?text=",
};
