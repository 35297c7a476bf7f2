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
  x: "A link counts 23, an emoji or CJK character 2.",
  mastodon: "A link counts 23.",
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

// Each line as short as it can be: the rules all posts share are in the note's system prompt
// (note.ts), read once per note; a post's task is read for each post (issue 67: the task lines
// were as long as the note).
export function postPrompt(p: PostPromptInput): { system: string; prompt: NoteTask } {
  const counting = p.limit !== null ? COUNTING[p.counting ?? "code points"] : "";
  const lines = [
    `Task: a post for ${LABELS[p.platform] ?? "the web"}.`,
    p.limit === null
      ? ""
      : p.thread
        ? `One post of at most ${p.limit} characters if the point fits; else a thread, each post at most ${p.limit - NUMBERING}, split between sentences, unnumbered.`
        : `At most ${p.limit} characters.`,
    counting,
    p.shape === "hook"
      ? "Start with the note's most striking sentence."
      : p.shape === "professional"
        ? `A one-line hook, then one idea per short paragraph${p.inviteReplies ? ", ending with a line inviting replies" : ""}.`
        : "Paragraphs separated by blank lines.",
    p.titled ? `A short headline as its title, not the note's first words${p.title ? ` (the note is titled: ${p.title})` : ""}.` : "No title.",
    `Tone: ${p.tone}. Length: ${LENGTHS[p.length] ?? "natural"}.`,
  ];
  return { system: noteSystem({ language: p.language, keep: p.keep }), prompt: { note: p.body, task: lines.filter(Boolean).join("\n") } };
}
