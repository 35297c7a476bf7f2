import { withApiKey } from "@/lib/http/with-api-key.ts";
import { json } from "@/lib/http/respond.ts";
import { getRecording } from "@/lib/transcription/get-recording.ts";

// GET /api/v1/recordings/{recording_id} – a recording uploaded in parts, joined in order
export const GET = withApiKey<{ recording_id: string }>({ scope: "transcribe" }, async ({ params, user }) => {
  return json(await getRecording({ userId: user.id, recordingId: params.recording_id }));
});
