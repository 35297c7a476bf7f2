import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/posts/contracts.ts";
import { createMaster } from "@/lib/posts/items/create-master.ts";
import { listMasters } from "@/lib/posts/items/list-masters.ts";

// GET /api/v1/content/items – your masters, newest first
export const GET = withOperation(api.listContentMasters, async ({ user, query }) => {
  return json(await listMasters({ userId: user.id, input: query }));
});

// POST /api/v1/content/items – a new master, from a body and/or one of your transcriptions
export const POST = withOperation(api.createContentMaster, async ({ user, body }) => {
  return json({ item: await createMaster({ userId: user.id, input: body }) }, { status: 201 });
});
