import { json } from "@/lib/http/respond.ts";
import { withServiceSecret } from "@/lib/api/with-service-secret.ts";
import { getWorkflowStatus } from "@/lib/clean-up/clean-up-status.ts";

// GET /api/internal/optimizations/{id} – internal: an optimization workflow and its queue job
export const GET = withServiceSecret<{ id: string }>(async ({ params }) => {
  return json(await getWorkflowStatus({ id: params.id }));
});
