import type { Scope } from "@/lib/api-keys/scopes.ts";

// The prose of the OpenAPI document, shared with the /docs page.

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  transcribe: "Transcribe audio (POST /transcribe).",
  "dictionary:read": "List your dictionary entries.",
  "dictionary:write": "Add, update and delete dictionary entries.",
  "content:read": "Read your content items and their channel variants.",
  "content:write": "Create, regenerate and approve variants, and record deliveries.",
};

export const CREATE_KEY_COMMAND = "npm run admin -- create-key --email you@example.com";

export const API_DESCRIPTION = `Voicedraft turns voice notes into clean transcripts, corrected with your personal dictionary.

## Authentication

Every operation except the health check and this document needs an API key in the header
\`Authorization: Bearer vd_…\`. Keys start with \`vd_\`; an administrator creates one with the admin CLI
(add \`--scopes a,b\` to limit it, \`--expires-in-days N\` to let it expire):

    ${CREATE_KEY_COMMAND}

The key is printed once and stored only as a hash. A missing, unknown, revoked or expired key gets
401 \`unauthorized\` with a \`WWW-Authenticate\` header.

## Scopes

Each key holds scopes (all of them unless limited). Each operation names the one it needs in its
description and in \`x-required-scope\`; a key without it gets 403 \`insufficient_scope\`.

${Object.entries(SCOPE_DESCRIPTIONS)
  .map(([scope, what]) => `- \`${scope}\`: ${what}`)
  .join("\n")}

## Rate limits

A key may make 1,200 requests a minute unless the server is set otherwise: every answer carries
\`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`, and beyond the limit the answer is
429 \`rate_limited\` with \`Retry-After\`. A key's requests are also paced, so that one key cannot take
the server from everyone else: beyond a burst of 40, they start no faster than the limit spread over
the minute (20 a second), and 8 at a time; the rest wait their turn in order instead of being refused
(200 at most, then 429). A live recording's requests (its appends, captions and Stop) take no turn
and are not paced. The SDKs retry safe calls after \`Retry-After\` on their own.

## Errors

Every error has one body shape (the \`Error\` schema):
\`{"error": {"code": "…", "message": "…", "request_id": "…"}}\`, plus \`details\` (one \`{path, message}\`
per invalid field) for \`validation_failed\`. Branch on \`code\`; the message is for people.
Every response carries \`X-Request-Id\`; quote it when reporting a problem.`;
