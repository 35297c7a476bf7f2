import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseJson } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { editItem } from "@/lib/content/edit-item.ts";
import { getItem } from "@/lib/content/get-item.ts";
import { EditItemInput } from "@/lib/content/schemas.ts";

// GET /api/v1/content/items/{id} – one master or variant
export const GET = withApiKey<{ id: string }>({ scope: "content:read" }, async ({ params, user }) => {
  return json({ item: await getItem({ userId: user.id, id: params.id }) });
});

// PATCH /api/v1/content/items/{id} – edit the title and/or body, guarded by the content_hash you last read
export const PATCH = withApiKey<{ id: string }>({ scope: "content:write" }, async ({ req, params, user }) => {
  const input = await parseJson(req, EditItemInput);
  return json({ item: await editItem({ userId: user.id, id: params.id, input }) });
});
