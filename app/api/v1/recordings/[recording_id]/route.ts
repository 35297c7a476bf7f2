import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/notes/contracts.ts";
import { getRecording } from "@/lib/notes/get-recording.ts";

// GET /api/v1/recordings/{recording_id} – a recording uploaded in parts, joined in order
export const GET = withOperation(api.getRecording, async ({ params, user }) => {
  return json(await getRecording({ userId: user.id, recordingId: params.recording_id }));
});
