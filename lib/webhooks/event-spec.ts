import { z } from "zod";
import type { JobSpec } from "@/lib/jobs/define-job.ts";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/schemas.ts";

// The event job as queued: ids only. Its runner (lib/webhook-events/event-job.ts) reads the notes
// and posts the event is about, so it lives outside lib/webhooks, which those domains import to emit.
export const webhookEventJobSpec = {
  name: "webhook-event",
  payload: z.strictObject({
    userId: z.string().min(1),
    type: z.enum(WEBHOOK_EVENT_TYPES),
    subjectId: z.string().min(1).nullable(),
    /** transcription.failed: the error code. */
    detail: z.string().max(64).nullable(),
    occurredAt: z.iso.datetime(),
  }),
} satisfies JobSpec;
