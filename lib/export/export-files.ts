import { storedInsights } from "@/lib/insights/store-insights.ts";
import { shownText } from "@/lib/notes/store/shown-text.ts";
import type { Insights } from "@/lib/insights/schemas.ts";

// What goes into the export archive, as plain functions of rows: file names, Markdown with YAML
// front matter, and CSV. No I/O here (lib/export/export-archive.ts streams them into the ZIP).

const TITLE_MAX = 60;
const SLUG_MAX = 40;

/** The note's own title, else its first sentence (cut near 60 characters), as the app names it. */
export function noteTitle(title: string | null, text: string, language?: string): string {
  if (title?.trim()) return title.trim();
  const trimmed = text.trim();
  if (!trimmed) return "Voice note";
  const first = new Intl.Segmenter(language, { granularity: "sentence" }).segment(trimmed)[Symbol.iterator]().next().value?.segment ?? trimmed;
  const sentence = first.trim().replace(/[.,;:!?。！？]+$/u, "");
  const head = sentence.length <= TITLE_MAX ? sentence : `${sentence.slice(0, TITLE_MAX).replace(/\s+\S*$/u, "")}…`;
  return head.charAt(0).toUpperCase() + head.slice(1);
}

/** ASCII words of a title, for a file name that opens anywhere ("" → fallback). */
export function slug(text: string, fallback: string): string {
  const ascii = text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  const words = ascii.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return words.slice(0, SLUG_MAX).replace(/-+$/, "") || fallback;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * `<yyyy-mm-dd>-<slug>-<id8>`: id8 is the id's last 8 characters, its random part (a uuid v7
 * begins with its time, so the first 8 are shared by everything made within the same minute).
 */
export function baseName(date: Date, title: string, id: string, fallback: string): string {
  return `${day(date)}-${slug(title, fallback)}-${id.replace(/-/g, "").slice(-8)}`;
}

// A JSON string is a valid YAML double-quoted scalar (same escapes), and a JSON array of them a YAML
// flow sequence, so values need no YAML library.
const yaml = (fields: Record<string, string | number | string[] | null | undefined>) =>
  [
    "---",
    ...Object.entries(fields)
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([key, value]) => `${key}: ${typeof value === "number" ? value : JSON.stringify(value)}`),
    "---",
  ].join("\n");

export type NoteRow = {
  id: string;
  title: string | null;
  text: string;
  rawText: string;
  language: string;
  durationSec: number;
  editedAt: Date | null;
  recordedAt: Date | null;
  createdAt: Date;
  optimization: { status: string; optimizedText: string | null } | null;
  insights: unknown;
  tags: string[];
};

/** The insights as Markdown sections after the text: summary, key points, action items as a task list. */
function insightsMarkdown(insights: Insights | null): string {
  if (!insights) return "";
  const sections = [
    insights.summary && `## Summary\n\n${insights.summary}`,
    insights.key_points.length && `## Key points\n\n${insights.key_points.map((p) => `- ${p}`).join("\n")}`,
    insights.action_items.length && `## Action items\n\n${insights.action_items.map((a) => `- [${a.done ? "x" : " "}] ${a.text}`).join("\n")}`,
  ].filter(Boolean);
  return sections.map((s) => `${s}\n\n`).join("");
}

export function noteMarkdown(note: NoteRow): { base: string; markdown: string; date: Date } {
  const text = shownText(note);
  const insights = storedInsights(note.insights);
  const title = note.title?.trim() || insights?.title || noteTitle(null, text, note.language);
  const date = note.recordedAt ?? note.createdAt;
  const front = yaml({
    title, date: date.toISOString(), duration: Math.round(note.durationSec * 10) / 10, language: note.language, id: note.id, summary: insights?.summary || undefined,
    // As Obsidian and most static-site generators read them; none: no line.
    tags: note.tags.length ? note.tags : undefined,
  });
  const markdown = `${front}\n\n${text.trim()}\n\n${insightsMarkdown(insights)}## Recognized text\n\n${note.rawText.trim()}\n`;
  return { base: baseName(date, title, note.id, "note"), markdown, date };
}

export type PostRow = {
  id: string;
  kind: string;
  title: string;
  body: string;
  masterId: string | null;
  sourceTranscriptionId: string | null;
  approvedHash: string | null;
  contentHash: string;
  createdAt: Date;
  updatedAt: Date;
  channel: { name: string; platform: string } | null;
  deliveries: { state: string }[];
};

export function postMarkdown(post: PostRow): { base: string; markdown: string; date: Date } {
  const isVariant = post.kind === "variant";
  const status = !isVariant ? "master" : post.approvedHash !== null && post.approvedHash === post.contentHash ? "approved" : "awaiting_approval";
  const front = yaml({
    title: post.title,
    kind: post.kind,
    channel: post.channel?.name,
    platform: post.channel?.platform,
    status,
    delivery: post.deliveries[0]?.state,
    date: post.createdAt.toISOString(),
    updated: post.updatedAt.toISOString(),
    id: post.id,
    master_id: post.masterId,
    source_note_id: post.sourceTranscriptionId,
  });
  const name = isVariant && post.channel ? `${post.title} ${post.channel.platform}` : post.title;
  return { base: baseName(post.createdAt, name, post.id, "post"), markdown: `${front}\n\n${post.body.trim()}\n`, date: post.createdAt };
}

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; quotes doubled. A field a
 * spreadsheet would run as a formula (it starts with = + - @, a tab or a carriage return) gets a leading
 * apostrophe, as OWASP advises, so opening the export cannot run what someone typed as a dictionary word.
 */
export function csvField(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvRow = (fields: string[]) => `${fields.map(csvField).join(",")}\r\n`;
