"use client";

import { FileAudio, FileText, FileType, Captions, Share2 } from "lucide-react";
import { useState, type ReactNode } from "react";
import { cuesOf, fileBase, toMarkdown, toPlainText, toSrt, toVtt, type NoteForFiles } from "@/app/_lib/notes/note-files.ts";
import type { TextToken } from "@/app/_lib/notes/word-times.ts";
import { Notice, Sheet, useToast } from "@/app/_ui/index.ts";
import styles from "./note.module.css";

// "Share as a file": the note's text, its recording, or a file (Markdown, plain text, SRT and
// WebVTT subtitles, Word) to the phone's share sheet where the browser can share files, else saved
// as a download. Nothing is recorded: a note shared is not a post.

type Kind = "text" | "audio" | "md" | "txt" | "srt" | "vtt" | "docx";

async function docxOf(note: NoteForFiles): Promise<Blob> {
  const { Document, HeadingLevel, Packer, Paragraph, TextRun } = await import("docx");
  const heading = (text: string) => new Paragraph({ text, heading: HeadingLevel.HEADING_2 });
  const children = [new Paragraph({ text: note.title, heading: HeadingLevel.TITLE })];
  if (note.summary) children.push(heading("Summary"), new Paragraph(note.summary));
  if (note.keyPoints?.length) children.push(heading("Key points"), ...note.keyPoints.map((p) => new Paragraph({ text: p, bullet: { level: 0 } })));
  if (note.actionItems?.length) {
    children.push(heading("To do"), ...note.actionItems.map((a) => new Paragraph({ children: [new TextRun(`${a.done ? "☑" : "☐"} ${a.text}`)] })));
  }
  if (children.length > 1) children.push(heading("Text"));
  children.push(...note.text.split(/\n{2,}/).map((p) => new Paragraph(p.replace(/\n/g, " "))));
  return Packer.toBlob(new Document({ creator: "Voicedraft", title: note.title, sections: [{ children }] }));
}

/** Shares `file` where the browser can share files; else saves it. Returns what happened. */
async function shareOrSave(file: File): Promise<"shared" | "saved" | "cancelled"> {
  if (typeof navigator.canShare === "function" && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: file.name });
      return "shared";
    } catch (err) {
      if ((err as Error).name === "AbortError") return "cancelled";
    }
  }
  const url = URL.createObjectURL(file);
  const link = Object.assign(document.createElement("a"), { href: url, download: file.name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return "saved";
}

export function NoteFilesSheet({
  open,
  onClose,
  note,
  tokens,
  audioUrl,
}: {
  open: boolean;
  onClose: () => void;
  note: NoteForFiles;
  /** The shown text's words with their times (empty: no subtitles). */
  tokens: TextToken[];
  audioUrl: string | null;
}) {
  const toast = useToast();
  const [busy, setBusy] = useState<Kind | null>(null);
  const [error, setError] = useState<string | null>(null);
  const base = fileBase(note.title);
  const timed = tokens.some((t) => t.word && Number.isFinite(t.start));

  async function make(kind: Kind): Promise<File | null> {
    const file = (body: BlobPart, ext: string, type: string) => new File([body], `${base}.${ext}`, { type });
    switch (kind) {
      case "md":
        return file(toMarkdown(note), "md", "text/markdown");
      case "txt":
        return file(toPlainText(note), "txt", "text/plain");
      case "srt":
        return file(toSrt(cuesOf(tokens)), "srt", "application/x-subrip");
      case "vtt":
        return file(toVtt(cuesOf(tokens)), "vtt", "text/vtt");
      case "docx":
        return file(await docxOf(note), "docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
      case "audio": {
        const res = await fetch(audioUrl!, { credentials: "same-origin" });
        if (!res.ok) throw new Error(res.status === 404 ? "This note's recording is no longer kept." : `The recording could not be fetched (${res.status}).`);
        const blob = await res.blob();
        return file(blob, blob.type.includes("ogg") ? "ogg" : "webm", blob.type || "audio/webm");
      }
      default:
        return null;
    }
  }

  async function pick(kind: Kind) {
    setBusy(kind);
    setError(null);
    try {
      if (kind === "text") {
        if (typeof navigator.share === "function") await navigator.share({ title: note.title, text: note.text }).catch(() => undefined);
        else {
          await navigator.clipboard.writeText(note.text);
          toast("Copied the text.");
        }
        return onClose();
      }
      const made = await make(kind);
      if (!made) return;
      const outcome = await shareOrSave(made);
      if (outcome !== "cancelled") toast(outcome === "shared" ? `Shared ${made.name}.` : `Saved ${made.name}.`);
      onClose();
    } catch (err) {
      setError(err instanceof TypeError ? "No connection: the recording could not be fetched." : (err as Error).message);
    } finally {
      setBusy(null);
    }
  }

  const option = (kind: Kind, icon: ReactNode, label: string, hint: string, disabled = false) => (
    <li key={kind}>
      <button type="button" className={styles.fileOption} onClick={() => void pick(kind)} disabled={disabled || busy !== null} data-testid={`file-${kind}`}>
        {icon}
        <span>
          <strong>{busy === kind ? "Preparing…" : label}</strong>
          <span className={styles.scopeHint}>{hint}</span>
        </span>
      </button>
    </li>
  );
  return (
    <Sheet open={open} onClose={onClose} title="Share this note">
      <ul className={styles.fileOptions} aria-label="Ways to share this note">
        {option("text", <Share2 size={20} aria-hidden="true" />, "The text", "To a message, a mail or notes")}
        {audioUrl && option("audio", <FileAudio size={20} aria-hidden="true" />, "The recording", "The audio file, as recorded")}
        {option("md", <FileText size={20} aria-hidden="true" />, "Markdown (.md)", "Title, summary, to-dos and the text")}
        {option("txt", <FileText size={20} aria-hidden="true" />, "Plain text (.txt)", "Title and text")}
        {option("docx", <FileType size={20} aria-hidden="true" />, "Word (.docx)", "For Word, Pages or Google Docs")}
        {option("srt", <Captions size={20} aria-hidden="true" />, "Subtitles (.srt)", timed ? "Timed by the spoken words" : "Needs the recording's word times", !timed)}
        {option("vtt", <Captions size={20} aria-hidden="true" />, "Subtitles (.vtt)", timed ? "For the web and video editors" : "Needs the recording's word times", !timed)}
      </ul>
      {error && <Notice tone="danger">{error}</Notice>}
    </Sheet>
  );
}
