import { withOperation } from "@/lib/api/with-operation.ts";
import { readBodyBytes } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/transcription/contracts.ts";
import { appendLiveAudio } from "@/lib/transcription/live/append-live-audio.ts";
import { getLiveRecording, waitForLiveCaptions } from "@/lib/transcription/live/get-live-recording.ts";

// PATCH /api/v1/live-recordings/{id}?offset=N – the next bytes of a recording still being made
export const PATCH = withOperation(api.appendLiveAudio, async ({ req, params, query, user }) => {
  const bytes = await readBodyBytes(req, api.LIVE_BODY_MAX_BYTES);
  const { recording, created } = await appendLiveAudio({
    userId: user.id,
    id: params.id,
    offset: query.offset,
    bytes,
    mimeType: req.headers.get("content-type") ?? "application/octet-stream",
    recordedAt: query.recorded_at,
  });
  return json(recording, { status: created ? 201 : 200 });
});

// GET /api/v1/live-recordings/{id} – what arrived, and the captions so far (?captions_after: once there are new ones)
export const GET = withOperation(api.getLiveRecording, async ({ req, params, query, user }) => {
  if (query.captions_after === undefined) return json(await getLiveRecording({ userId: user.id, id: params.id }));
  const waitSec = query.wait ?? CAPTIONS_WAIT_SECONDS;
  return json(await waitForLiveCaptions({ userId: user.id, id: params.id, after: query.captions_after, waitSec, signal: req.signal }));
});

const CAPTIONS_WAIT_SECONDS = 20;
