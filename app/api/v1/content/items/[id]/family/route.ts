import { withApiKey } from "@/lib/http/with-api-key.ts";
import { json } from "@/lib/http/respond.ts";
import { getFamily } from "@/lib/content/get-family.ts";

// GET /api/v1/content/items/{id}/family – the master and its variants, from any member's id
export const GET = withApiKey<{ id: string }>({ scope: "content:read" }, async ({ params, user }) => {
  return json(await getFamily({ userId: user.id, id: params.id }));
});
