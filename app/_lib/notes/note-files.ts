import type { TextToken } from "@/app/_lib/notes/word-times.ts";

// One note out as a file: Markdown, plain text, and subtitles (SRT, WebVTT) timed by the note's
// own words, so a fixed or edited word is in the subtitle as shown. Pure functions; the sheet that
// shares or saves them is app/_components/note-files-sheet.tsx (DOCX is made there, with `docx`,
// loaded only when asked for).

export type NoteForFiles = {
  title: string;
  text: string;
  recordedAt: string;
  duration: number;
  tags?: string[];
  summary?: string | null;
  keyPoints?: string[];
  actionItems?: { text: string; done: boolean }[];
};

/** A file name from the title: letters, digits and dashes, at most 60 characters. */
export function fileBase(title: string): string {
  const base = title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return base || "note";
}

export function toMarkdown(note: NoteForFiles): string {
  // Front matter for the tags (as the export writes them), which Obsidian and other notes apps read.
  const front = note.tags?.length ? `---\ntags: ${JSON.stringify(note.tags)}\n---\n\n` : "";
  const parts = [`${front}# ${note.title}`, `*${new Date(note.recordedAt).toISOString().slice(0, 16).replace("T", " ")} UTC · ${clock(note.duration)}*`];
  if (note.summary) parts.push(`## Summary\n\n${note.summary}`);
  if (note.keyPoints?.length) parts.push(`## Key points\n\n${note.keyPoints.map((p) => `- ${p}`).join("\n")}`);
  if (note.actionItems?.length) parts.push(`## To do\n\n${note.actionItems.map((a) => `- [${a.done ? "x" : " "}] ${a.text}`).join("\n")}`);
  parts.push(note.summary || note.keyPoints?.length || note.actionItems?.length ? `## Text\n\n${note.text.trim()}` : note.text.trim());
  return `${parts.join("\n\n")}\n`;
}

export function toPlainText(note: NoteForFiles): string {
  return `${note.title}\n\n${note.text.trim()}\n`;
}

const MAX_CUE_SECONDS = 6;
const MAX_CUE_CHARS = 84; // two lines of 42, the common subtitle width

export type Cue = { start: number; end: number; text: string };

/** The shown text's words grouped into cues: a sentence end, a pause, 6 s or two lines close one. */
export function cuesOf(tokens: TextToken[]): Cue[] {
  const cues: Cue[] = [];
  let text = "";
  let start = NaN;
  let end = NaN;
  const close = () => {
    if (text.trim() && Number.isFinite(start)) cues.push({ start, end: Math.max(end, start + 0.5), text: text.trim() });
    text = "";
    start = NaN;
  };
  for (const token of tokens) {
    if (!token.word) {
      text += token.text.replace(/\s+/g, " ");
      if (/[.!?…]/.test(token.text) && text.length > 20) close();
      continue;
    }
    const timed = Number.isFinite(token.start);
    if (timed && Number.isFinite(start) && (token.start - start > MAX_CUE_SECONDS || (text + token.text).length > MAX_CUE_CHARS || token.start - end > 1.5)) close();
    if (!Number.isFinite(start) && timed) start = token.start;
    if (timed) end = token.end;
    text += token.text;
  }
  close();
  return cues;
}

const stamp = (seconds: number, separator: "," | ".") => {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
};

/** Two lines at most per cue, broken at the space nearest the middle. */
function lines(text: string): string {
  if (text.length <= MAX_CUE_CHARS / 2) return text;
  const middle = text.length / 2;
  let best = -1;
  for (let i = text.indexOf(" "); i !== -1; i = text.indexOf(" ", i + 1)) if (best === -1 || Math.abs(i - middle) < Math.abs(best - middle)) best = i;
  return best === -1 ? text : `${text.slice(0, best)}\n${text.slice(best + 1)}`;
}

export function toSrt(cues: Cue[]): string {
  return cues.map((c, i) => `${i + 1}\n${stamp(c.start, ",")} --> ${stamp(c.end, ",")}\n${lines(c.text)}\n`).join("\n");
}

export function toVtt(cues: Cue[]): string {
  return `WEBVTT\n\n${cues.map((c) => `${stamp(c.start, ".")} --> ${stamp(c.end, ".")}\n${lines(c.text)}\n`).join("\n")}`;
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, "0")}`;
