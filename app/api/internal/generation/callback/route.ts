import { withSignature } from "@/lib/api/with-signature.ts";
import { parseJsonText } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { applyGenerationResult } from "@/lib/posts/generation/apply-generation-result.ts";
import { GenerationResult } from "@/lib/posts/schemas.ts";

// POST /api/internal/generation/callback – a generator's result, HMAC-signed with the service secret (internal)
export const POST = withSignature({ maxBytes: 256 * 1024 }, async ({ body }) => {
  return json(await applyGenerationResult(parseJsonText(body, GenerationResult)));
});
