import type { Platform } from "@/lib/channels/schemas.ts";

export type GeneratorPreset = {
  tone: string;
  length: string;
  format: string;
  hashtags: string[];
  includeTitle: boolean;
  /** LinkedIn and Facebook posts end with a line that invites replies (default true). */
  inviteReplies?: boolean;
};

/** A dictionary entry: a correct spelling that replaces no everyday word is a name worth tagging. */
export type GenerationTerm = { misspelling: string; correct: string };

export type GenerationInput = {
  /** The master's title and body as in the variant's source snapshot. */
  title: string;
  body: string;
  platform: Platform;
  preset: GeneratorPreset;
  /** The user's dictionary entries: names among them that the note mentions become hashtags. */
  terms?: GenerationTerm[];
  /** The note's language (ISO 639-1) when known; otherwise the generator guesses it. */
  language?: string | null;
  /** The note the post is of, when it came from one: the writer's outcome is counted for it (Settings → Writing). */
  noteId?: string | null;
};

export type GenerationOutput = {
  title: string;
  body: string;
  /** Who wrote it: the writer (a language model), or the offline rules; with the reason when the writer could not. */
  writtenBy?: "writer" | "local-model" | "offline";
  reason?: string;
};

export type GenerationHooks = {
  /** The post so far, as a writer streams it (the offline rules write at once and never call it). */
  onPartial?: (text: string) => void;
  /** The writer started on it (the model on this machine once its turn came; until then it waits). */
  onStart?: () => void;
};

export type Generator = { name: string; generate(input: GenerationInput, hooks?: GenerationHooks): Promise<GenerationOutput> };
