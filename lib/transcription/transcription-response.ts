import { json } from "@/lib/http/respond.ts";
import type { formatResult } from "@/lib/transcription/format-result.ts";
import type { TranscriptionResult } from "@/lib/transcription/schemas.ts";

/** The HTTP response of an upload endpoint: the formatted result, its id, and whether it was replayed. */
export function transcriptionResponse(
  { result, replayed }: { result: TranscriptionResult; replayed: boolean },
  formatted: ReturnType<typeof formatResult>,
): Response {
  const headers = { "X-Transcription-Id": result.id, ...(replayed && { "Idempotent-Replayed": "true" }) };
  if ("json" in formatted) return json(formatted.json, { headers });
  return new Response(formatted.body, { headers: { "content-type": formatted.contentType, ...headers } });
}
