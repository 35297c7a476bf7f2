import type { Platform } from "@/lib/channels/schemas.ts";

// Post length limits in Unicode code points; null: no practical limit (newsletter, blog, other).
export const PLATFORM_LIMITS: Record<Platform, number | null> = {
  x: 280,
  bluesky: 300,
  threads: 500,
  mastodon: 500,
  instagram: 2200,
  linkedin: 3000,
  facebook: 63_206,
  newsletter: null,
  blog: null,
  other: null,
};

// A thread's posts are stored in one body, separated by a line holding only "---".
export const THREAD_SEPARATOR = "\n\n---\n\n";

export const length = (s: string) => Array.from(s).length;

export function splitPosts(body: string): string[] {
  return body.split(THREAD_SEPARATOR);
}
