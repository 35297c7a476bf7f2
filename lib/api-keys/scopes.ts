import { z } from "zod";

export const SCOPES = ["transcribe", "dictionary:read", "dictionary:write", "content:read", "content:write"] as const;
export type Scope = (typeof SCOPES)[number];
export const ScopeSchema = z.enum(SCOPES);

/** Each scope in plain words, as a person reads them on the consent screen and in Connected apps. */
export const SCOPE_WORDS: Record<Scope, string> = {
  transcribe: "Turn recordings into notes",
  "dictionary:read": "See your dictionary of spellings",
  "dictionary:write": "Add words to your dictionary",
  "content:read": "Read your notes, to-dos and posts",
  "content:write": "Edit your notes and make posts (never publish them)",
};
