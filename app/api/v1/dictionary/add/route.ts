import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/dictionary/contracts.ts";
import { upsertEntry } from "@/lib/dictionary/upsert-entry.ts";

// POST /api/v1/dictionary/add – add an entry (201) or update the one with the same misspelling (200)
export const POST = withOperation(api.addDictionaryEntry, async ({ user, body }) => {
  const { entry, created } = await upsertEntry({ userId: user.id, input: body });
  return json({ entry, created }, { status: created ? 201 : 200 });
});
