import { z } from "zod";

export const SCOPES = ["transcribe", "dictionary:read", "dictionary:write", "content:read", "content:write"] as const;
export type Scope = (typeof SCOPES)[number];
export const ScopeSchema = z.enum(SCOPES);
