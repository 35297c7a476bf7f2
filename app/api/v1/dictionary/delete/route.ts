import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseQuery } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { deleteEntry } from "@/lib/dictionary/delete-entry.ts";
import { DeleteEntryQuery } from "@/lib/dictionary/schemas.ts";

// DELETE /api/v1/dictionary/delete?misspelling=… – delete one entry (404 when there is none)
export const DELETE = withApiKey({ scope: "dictionary:write" }, async ({ req, user }) => {
  const input = parseQuery(req, DeleteEntryQuery);
  return json({ deleted: await deleteEntry({ userId: user.id, input }) });
});
