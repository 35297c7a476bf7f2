import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/dictionary/contracts.ts";
import { entryImpact } from "@/lib/dictionary/entry-impact.ts";

// GET /api/v1/dictionary/impact?misspelling=… – whether it is an everyday word, and how many notes hold it
export const GET = withOperation(api.getDictionaryImpact, async ({ user, query }) => {
  return json(await entryImpact({ userId: user.id, input: query }));
});
