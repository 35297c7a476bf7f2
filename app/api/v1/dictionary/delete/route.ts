import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/dictionary/contracts.ts";
import { deleteEntry } from "@/lib/dictionary/delete-entry.ts";

// DELETE /api/v1/dictionary/delete?misspelling=… – delete one entry (404 when there is none)
export const DELETE = withOperation(api.deleteDictionaryEntry, async ({ user, query }) => {
  return json({ deleted: await deleteEntry({ userId: user.id, input: query }) });
});
