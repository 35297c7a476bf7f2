import { withRequest } from "@/lib/http/with-request.ts";
import { json } from "@/lib/http/respond.ts";
import { readCallbackBody, receiveGenerationCallback } from "@/lib/content/generation-callback.ts";

// POST /api/internal/generation/callback – a generator's result, HMAC-signed with the service secret (internal)
export const POST = withRequest(async ({ req }) => {
  const raw = await readCallbackBody(req);
  return json(await receiveGenerationCallback(raw, req.headers));
});
