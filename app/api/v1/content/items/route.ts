import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseJson, parseQuery } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { createMaster } from "@/lib/content/create-master.ts";
import { listMasters } from "@/lib/content/list-masters.ts";
import { CreateMasterInput, ListItemsQuery } from "@/lib/content/schemas.ts";

// GET /api/v1/content/items – your masters, newest first
export const GET = withApiKey({ scope: "content:read" }, async ({ req, user }) => {
  const input = parseQuery(req, ListItemsQuery);
  return json(await listMasters({ userId: user.id, input }));
});

// POST /api/v1/content/items – a new master, from a body and/or one of your transcriptions
export const POST = withApiKey({ scope: "content:write" }, async ({ req, user }) => {
  const input = await parseJson(req, CreateMasterInput);
  return json({ item: await createMaster({ userId: user.id, input }) }, { status: 201 });
});
