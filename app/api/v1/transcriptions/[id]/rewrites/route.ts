import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/rewrites/contracts.ts";
import { createRewrite } from "@/lib/rewrites/create-rewrite.ts";
import { listRewrites } from "@/lib/rewrites/rewrite-store.ts";

// GET /api/v1/transcriptions/{id}/rewrites – the note's rewrites, newest first
export const GET = withOperation(api.listRewrites, async ({ params, user }) => {
  return json({ rewrites: await listRewrites({ userId: user.id, id: params.id }) });
});

// POST /api/v1/transcriptions/{id}/rewrites – rewrite the note in a style, kept beside it
export const POST = withOperation(api.createRewrite, async ({ params, user, body }) => {
  return json({ rewrite: await createRewrite({ userId: user.id, id: params.id, input: body }) }, { status: 201 });
});
