import { z } from "zod";
import { parseJson } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { withServiceSecret } from "@/lib/api/with-service-secret.ts";
import { recoverStaleCleanUps } from "@/lib/clean-up/clean-up-job.ts";

const RecoverInput = z.strictObject({ stale_seconds: z.number().min(0).max(86_400).optional() });

// POST /api/internal/optimizations/recover – internal: re-dispatch runs whose worker stopped
export const POST = withServiceSecret(async ({ req }) => {
  const input = await parseJson(req, RecoverInput);
  const recovered = await recoverStaleCleanUps({ staleSeconds: input.stale_seconds });
  return json({ recovered: recovered.length, workflow_ids: recovered });
});
