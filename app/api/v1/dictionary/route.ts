import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseQuery } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { listEntries } from "@/lib/dictionary/list-entries.ts";
import { ListEntriesQuery } from "@/lib/dictionary/schemas.ts";

// GET /api/v1/dictionary – the user's entries, sorted by misspelling
export const GET = withApiKey({ scope: "dictionary:read" }, async ({ req, user }) => {
  const input = parseQuery(req, ListEntriesQuery);
  return json(await listEntries({ userId: user.id, input }));
});
