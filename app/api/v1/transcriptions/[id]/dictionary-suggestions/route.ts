import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseQuery } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { suggestDictionaryEntries } from "@/lib/transcription/suggest-dictionary-entries.ts";
import { DictionarySuggestionsQuery } from "@/lib/transcription/schemas.ts";

// GET /api/v1/transcriptions/{id}/dictionary-suggestions – dictionary entries your edits of this transcript suggest
// Scope transcribe: the answer quotes the transcript, which dictionary:read alone may not see.
export const GET = withApiKey<{ id: string }>({ scope: "transcribe" }, async ({ req, params, user }) => {
  const input = parseQuery(req, DictionarySuggestionsQuery);
  return json(await suggestDictionaryEntries({ userId: user.id, id: params.id, input }));
});
