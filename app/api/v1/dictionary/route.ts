import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/dictionary/contracts.ts";
import { listEntries } from "@/lib/dictionary/list-entries.ts";

// GET /api/v1/dictionary – the user's entries, sorted by misspelling
export const GET = withOperation(api.listDictionary, async ({ user, query }) => {
  return json(await listEntries({ userId: user.id, input: query }));
});
