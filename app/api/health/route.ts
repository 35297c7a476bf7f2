import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/health/contracts.ts";
import { checkHealth } from "@/lib/health/check-health.ts";
import { publicAddress } from "@/lib/http/public-origin.ts";

export const dynamic = "force-dynamic";

// GET /api/health – 200 when the database answers and is fully migrated, else 503
export const GET = withOperation(api.getHealth, async ({ req }) => {
  const health = await checkHealth(publicAddress(req));
  return json(health, { status: health.status === "ok" ? 200 : 503 });
});
