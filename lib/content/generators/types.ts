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
};

export type GenerationOutput = { title: string; body: string };

export type Generator = { name: string; generate(input: GenerationInput): Promise<GenerationOutput> };
