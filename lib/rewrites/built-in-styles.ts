import type { BuiltInStyleId } from "@/lib/rewrites/schemas.ts";

// The built-in styles: what the writer is asked for, and whether rules can write them without one
// (the to-do list from the note's action items, the blog outline from its key points). The others
// need a writer: rules cannot turn a rambling note into a good email or post.

export type BuiltInStyle = { id: BuiltInStyleId; name: string; instructions: string; offline: boolean };

export const BUILT_IN_STYLES: readonly BuiltInStyle[] = [
  {
    id: "email",
    name: "Email",
    instructions:
      "Write a clear, friendly email from the note: a subject line as the title, a greeting, short paragraphs with the point first, and a closing line. " +
      "Leave the recipient's name as it appears in the note, or write a neutral greeting.",
    offline: false,
  },
  {
    id: "todo_list",
    name: "To-do list",
    instructions:
      "Write a to-do list of what the note commits to doing: one line per task, each starting with \"- [ ] \" and a verb, in the note's order. " +
      "Keep names, dates and places. The title names what the list is for.",
    offline: true,
  },
  {
    id: "meeting_notes",
    name: "Meeting notes",
    instructions:
      "Write meeting notes: a short summary, then sections \"Discussed\", \"Decisions\" and \"Action items\" (\"- [ ] \" lines, with who and when where the note says). " +
      "Leave a section out when the note has nothing for it.",
    offline: false,
  },
  {
    id: "blog_outline",
    name: "Blog outline",
    instructions:
      "Write a blog post outline: a working title, a one-line hook, then numbered sections with a heading each and two or three bullet points of what it covers, and a closing section.",
    offline: true,
  },
  {
    id: "social_post",
    name: "Social post",
    instructions:
      "Write one social media post in the author's voice: open with the most striking point, keep it under 280 characters where the note allows, no hashtags unless the note has them. The title is a few words naming the topic.",
    offline: false,
  },
];

export const builtInStyle = (id: string): BuiltInStyle | undefined => BUILT_IN_STYLES.find((style) => style.id === id);
