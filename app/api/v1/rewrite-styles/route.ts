import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/rewrites/contracts.ts";
import { createRewriteStyle, listRewriteStyles } from "@/lib/rewrites/style-store.ts";

// GET /api/v1/rewrite-styles – the built-in styles, then yours, each with whether it can be written now
export const GET = withOperation(api.listRewriteStyles, async ({ user }) => {
  return json(await listRewriteStyles({ userId: user.id }));
});

// POST /api/v1/rewrite-styles – a style of your own
export const POST = withOperation(api.createRewriteStyle, async ({ user, body }) => {
  return json({ style: await createRewriteStyle({ userId: user.id, input: body }) }, { status: 201 });
});
