// How a post is stored: a thread's posts in one body, separated by a line holding only "---". The
// platforms' limits and how each counts a post's length are lib/channels/platforms.ts.
export const THREAD_SEPARATOR = "\n\n---\n\n";

/** A length as some platform counts it (lib/channels/platforms.ts: postLength). */
export type Count = (text: string) => number;

export function splitPosts(body: string): string[] {
  return body.split(THREAD_SEPARATOR);
}
