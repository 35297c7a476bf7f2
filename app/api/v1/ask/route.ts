import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import { ApiError, internalError } from "@/lib/http/errors.ts";
import { eventStream } from "@/lib/http/sse.ts";
import { log, errorFields } from "@/lib/log.ts";
import * as api from "@/lib/ask/contracts.ts";
import { askNotes } from "@/lib/ask/ask-notes.ts";
import { acceptsEventStream } from "@/lib/transcription/upload/transcribe-upload.ts";

// POST /api/v1/ask – a question across your notes, answered with citations (JSON or events)
export const POST = withOperation(api.askNotes, async ({ req, user, body, requestId }) => {
  if (!acceptsEventStream(req)) return json(await askNotes({ userId: user.id, input: body, signal: req.signal }));
  return eventStream(async (sink) => {
    try {
      const answer = await askNotes({
        userId: user.id,
        input: body,
        signal: req.signal,
        listen: { citations: (citations) => sink.send({ type: "ask.citations", citations }), delta: (delta) => sink.send({ type: "ask.answer.delta", delta }) },
      });
      sink.send({ type: "ask.done", ...answer });
    } catch (err) {
      if (req.signal.aborted) return;
      log.error("ask failed in its stream", { request_id: requestId, ...errorFields(err) });
      const error = err instanceof ApiError ? err : internalError();
      sink.send({ type: "error", error: { code: error.code, message: error.message, request_id: requestId, status: error.status } });
    }
  });
});
