import { z } from "zod";
import { SCOPES, ScopeSchema } from "@/lib/api-keys/scopes.ts";

export const CreateApiKeyInput = z.strictObject({
  name: z.string().trim().min(1).max(100).default("default"),
  scopes: z.array(ScopeSchema).min(1).max(SCOPES.length).default([...SCOPES]),
  expiresAt: z.coerce.date().optional(),
});
export type CreateApiKeyInput = z.input<typeof CreateApiKeyInput>;

export type ApiKeySummary = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
};

export const API_KEY_SUMMARY_SELECT = {
  id: true,
  name: true,
  prefix: true,
  scopes: true,
  createdAt: true,
  lastUsedAt: true,
  expiresAt: true,
  revokedAt: true,
} as const;

/** What creating a key answers the form: the key, shown once, or why not. */
export type CreateKeyResult = { ok: true; key: string; name: string } | { ok: false; message: string };
