import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/notes/contracts.ts";
import { suggestDictionaryEntries } from "@/lib/notes/suggest-dictionary-entries.ts";

// GET /api/v1/transcriptions/{id}/dictionary-suggestions – dictionary entries your edits of this transcript suggest
// Scope transcribe: the answer quotes the transcript, which dictionary:read alone may not see.
export const GET = withOperation(api.getDictionarySuggestions, async ({ params, user, query }) => {
  return json(await suggestDictionaryEntries({ userId: user.id, id: params.id, input: query }));
});
