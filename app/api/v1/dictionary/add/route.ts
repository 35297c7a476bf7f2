import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseJson } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { upsertEntry } from "@/lib/dictionary/upsert-entry.ts";
import { UpsertEntryInput } from "@/lib/dictionary/schemas.ts";

// POST /api/v1/dictionary/add – add an entry (201) or update the one with the same misspelling (200)
export const POST = withApiKey({ scope: "dictionary:write" }, async ({ req, user }) => {
  const input = await parseJson(req, UpsertEntryInput);
  const { entry, created } = await upsertEntry({ userId: user.id, input });
  return json({ entry, created }, { status: created ? 201 : 200 });
});
