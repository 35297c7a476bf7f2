// Where a channel posts.
export const PLATFORMS = [
  "linkedin",
  "x",
  "threads",
  "bluesky",
  "mastodon",
  "instagram",
  "facebook",
  "newsletter",
  "blog",
  "other",
] as const;
export type Platform = (typeof PLATFORMS)[number];

// The preset a channel starts with, by platform (the app preselects it; any preset can be chosen).
// Its generator settings are repeated here so the generator's tests need no database.
type Default = { id: string; generator: { length: "short" | "medium" | "full"; format: "single" | "thread"; includeTitle: boolean } };

const STANDARD: Default = { id: "builtin-standard", generator: { length: "full", format: "single", includeTitle: false } };
const SHORT: Default = { id: "builtin-short", generator: { length: "short", format: "single", includeTitle: false } };
const THREAD: Default = { id: "builtin-thread", generator: { length: "full", format: "thread", includeTitle: false } };
const ARTICLE: Default = { id: "builtin-article", generator: { length: "full", format: "single", includeTitle: true } };
const CAPTION: Default = { id: "builtin-caption", generator: { length: "medium", format: "single", includeTitle: false } };

export const DEFAULT_PRESETS: Record<Platform, Default> = {
  // One post when the note is short, a numbered thread when it is long.
  x: THREAD,
  linkedin: STANDARD,
  facebook: STANDARD,
  bluesky: SHORT,
  threads: SHORT,
  mastodon: SHORT,
  instagram: CAPTION,
  newsletter: ARTICLE,
  blog: ARTICLE,
  other: STANDARD,
};

export const defaultPresetId = (platform: Platform): string => DEFAULT_PRESETS[platform].id;
