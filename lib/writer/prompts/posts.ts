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
  x: " (a link counts 23, an emoji 2)",
  mastodon: " (a link counts 23)",
  graphemes: "",
  "code points": "",
};
/** Room left in each post of a thread for its number ("\n\n99/99"). */
export const NUMBERING = 8;
/** What a length asks for; "full" (the default) goes without saying: the post follows the note. */
const LENGTHS: Record<string, string> = { short: "Short: one paragraph's worth.", medium: "About half as long as the note." };
/** A long-form limit (LinkedIn's 3,000) the note could not reach goes without saying; a short-form one is always said. */
const SHORT_FORM = 500;
const LIMIT_WORTH_SAYING = 0.8;

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

// A post's task is read for each post, after the note (issue 67: the note is read once, and what the
// tasks add is what the model reads beyond it). So it says only what this post needs beyond what
// the note's system prompt (note.ts) says for every post: its platform and limit, its shape, and
// the preset's choices that are not the defaults. The answer's form (and whether it has a title)
// is the grammar's, not the prompt's.
export function postPrompt(p: PostPromptInput): { system: string; prompt: NoteTask } {
  const counting = COUNTING[p.counting ?? "code points"] ?? "";
  const limit =
    p.limit === null || (!p.thread && p.limit > SHORT_FORM && p.body.length < p.limit * LIMIT_WORTH_SAYING)
      ? ""
      : p.thread
        ? ` of at most ${p.limit} characters${counting}, or if it does not fit, a thread of posts of at most ${p.limit - NUMBERING}, split between sentences, unnumbered`
        : ` of at most ${p.limit} characters${counting}`;
  const lines = [
    `Task: a post for ${LABELS[p.platform] ?? "the web"}${limit}.`,
    p.shape === "hook"
      ? "The note's most striking sentence first."
      : p.shape === "professional"
        ? `A one-line hook, then one idea per short paragraph${p.inviteReplies ? ", then a closing line inviting replies" : ""}.`
        : "Paragraphs separated by blank lines.",
    p.titled ? `Its title: a short headline, not the note's first words${p.title ? ` (the note is titled: ${p.title})` : ""}.` : "",
    p.tone && p.tone !== "neutral" ? `Tone: ${p.tone}.` : "",
    LENGTHS[p.length] ?? "",
  ];
  return { system: noteSystem({ language: p.language, keep: p.keep }), prompt: { note: p.body, task: lines.filter(Boolean).join("\n") } };
}
