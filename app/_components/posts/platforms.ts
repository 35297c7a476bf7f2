// Platform ids as people write them.
const NAMES: Record<string, string> = {
  linkedin: "LinkedIn",
  x: "X",
  threads: "Threads",
  bluesky: "Bluesky",
  mastodon: "Mastodon",
  instagram: "Instagram",
  facebook: "Facebook",
  newsletter: "Newsletter",
  blog: "Blog",
  other: "Other",
};

export const platformName = (id: string) => NAMES[id] ?? id;
