import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/transcription/contracts.ts";
import { finishLiveRecording } from "@/lib/transcription/live/finish-live-recording.ts";

// POST /api/v1/live-recordings/{id}/finish – Stop: the recording becomes one note
export const POST = withOperation(api.finishLiveRecording, async ({ req, params, user }) => {
  const { result, replayed } = await finishLiveRecording({ userId: user.id, id: params.id, signal: req.signal });
  return json(result, { status: replayed ? 200 : 201 });
});
