import type { Platform } from "@/lib/channels/schemas.ts";

export type GeneratorPreset = {
  tone: string;
  length: string;
  format: string;
  hashtags: string[];
  includeTitle: boolean;
};

export type GenerationInput = {
  /** The master's title and body as in the variant's source snapshot. */
  title: string;
  body: string;
  platform: Platform;
  preset: GeneratorPreset;
  /** The user's dictionary terms (correct spellings): those the note mentions become hashtags. */
  terms?: string[];
};

export type GenerationOutput = {
  title: string;
  body: string;
  /** Who wrote it: the writer (a language model), or the offline rules; with the reason when the writer could not. */
  writtenBy?: "writer" | "offline";
  reason?: string;
};

export type Generator = { name: string; generate(input: GenerationInput): Promise<GenerationOutput> };
