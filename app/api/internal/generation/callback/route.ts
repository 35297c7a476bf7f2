import { withRequest } from "@/lib/http/with-request.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { json } from "@/lib/http/respond.ts";
import { receiveGenerationCallback } from "@/lib/content/generation-callback.ts";

const MAX_BODY_CHARS = 256 * 1024;

// POST /api/internal/generation/callback – a generator's result, HMAC-signed with the service secret (internal)
export const POST = withRequest(async ({ req }) => {
  const raw = await req.text();
  if (raw.length > MAX_BODY_CHARS) throw new ApiError("payload_too_large", "The callback body is too large.");
  return json(await receiveGenerationCallback(raw, req.headers));
});
