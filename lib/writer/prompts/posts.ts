import { noteSystem, type NoteTask } from "@/lib/writer/prompts/note.ts";

// The prompt of a post: the platform's limit and shape, the preset, the note's language and the
// spellings to keep. The caller (lib/posts/generators/writer.ts) says which rules apply.

const LABELS: Record<string, string> = {
  x: "X (Twitter)",
  bluesky: "Bluesky",
  threads: "Threads",
  mastodon: "Mastodon",
  instagram: "an Instagram caption",
  linkedin: "LinkedIn",
  facebook: "Facebook",
  newsletter: "an email newsletter",
  blog: "a blog",
  other: "the web",
};
const COUNTING: Record<string, string> = {
  x: "X counts a link as 23 characters, and an emoji or a Chinese, Japanese or Korean character as 2.",
  mastodon: "Mastodon counts a link as 23 characters.",
  graphemes: "",
  "code points": "",
};
/** Room left in each post of a thread for its number ("\n\n99/99"). */
export const NUMBERING = 8;
const LENGTHS: Record<string, string> = { short: "short, one paragraph's worth", medium: "about half as long as the note", full: "as complete as the note" };

export type PostPromptInput = {
  platform: string;
  /** Characters per post, or null for none. */
  limit: number | null;
  /** How the platform counts them (lib/channels/platforms.ts). */
  counting?: "x" | "graphemes" | "mastodon" | "code points";
  thread: boolean;
  /** hook: short-form (the most striking sentence first); professional: hook, short paragraphs; paragraphs: long-form. */
  shape: "hook" | "professional" | "paragraphs";
  inviteReplies: boolean;
  titled: boolean;
  tone: string;
  length: string;
  /** The note's language, by name ("German"). */
  language: string;
  /** The person's spellings the note uses. */
  keep: string[];
  title: string;
  body: string;
};

export function postPrompt(p: PostPromptInput): { system: string; prompt: NoteTask } {
  const lines = [
    `Task: turn the note into a ready-to-post text for ${LABELS[p.platform] ?? "the web"}, in the author's own voice.`,
    "No hashtags, no emoji unless the tone is casual.",
    p.limit === null
      ? "There is no length limit."
      : p.thread
        ? `Write one post of at most ${p.limit} characters if the note's point fits in one; only if it does not, a thread: each post at most ${p.limit - NUMBERING} characters, split between sentences, no numbering.`
        : `The post must be at most ${p.limit} characters, counting spaces.`,
    ...(p.limit !== null && COUNTING[p.counting ?? "code points"] ? [COUNTING[p.counting ?? "code points"]] : []),
    p.shape === "hook"
      ? "Open with the hook: the most striking sentence of the note, first."
      : p.shape === "professional"
        ? `Open with a one-line hook, then one idea per short paragraph (one or two sentences each, blank lines between)${p.inviteReplies ? ", and end with a line that invites replies." : "."}`
        : "Write it as paragraphs separated by blank lines.",
    p.titled ? "Give it a title: a short headline, not the note's first words." : "Leave the title empty.",
    `Tone: ${p.tone}. Length: ${LENGTHS[p.length] ?? "natural"}.`,
    ...(p.title ? [`The note's title: ${p.title}`] : []),
  ];
  return { system: noteSystem({ language: p.language, keep: p.keep }), prompt: { note: p.body, task: lines.join("\n") } };
}
