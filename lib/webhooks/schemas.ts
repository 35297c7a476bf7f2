import { z } from "zod";
import { integerText } from "@/lib/http/integer-text.ts";
import { NAME_CHARS, NAME_CHARS_MESSAGE } from "@/lib/http/names.ts";

export const WEBHOOK_EVENT_TYPES = [
  "transcription.completed",
  "transcription.failed",
  "optimization.completed",
  "content.variants.generated",
  "content.variant.approved",
  "content.delivery.recorded",
  "note.deleted",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The event POST /api/v1/webhooks/{id}/test sends; not subscribable. */
export const TEST_EVENT_TYPE = "webhook.test";

export const WEBHOOKS_MAX = 20;
export const URL_MAX = 2000;
export const DESCRIPTION_MAX = 200;
/** How long a rotated-out secret still signs (Standard Webhooks receivers accept either). */
export const PREVIOUS_SECRET_HOURS = 24;

const WebhookUrl = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
  .max(URL_MAX, `must be at most ${URL_MAX} characters`)
  .meta({ description: "Where events are POSTed. Must lead to a public address (see the webhooks guide).", example: "https://hooks.example.com/voicedraft" });

const EventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1, "must name at least one event")
  .max(WEBHOOK_EVENT_TYPES.length)
  .overwrite((events) => [...new Set(events)])
  .meta({ description: "The events this endpoint is sent.", example: ["transcription.completed"] });

const Description = z
  .string()
  .transform((s) => s.normalize("NFC").trim())
  .pipe(z.string().max(DESCRIPTION_MAX, `must be at most ${DESCRIPTION_MAX} characters`).regex(NAME_CHARS, NAME_CHARS_MESSAGE))
  .meta({ description: "Your note about the endpoint.", example: "n8n: new transcripts" });

export const CreateWebhookInput = z
  .strictObject({ url: WebhookUrl, events: EventTypes, description: Description.optional() })
  .meta({ id: "WebhookCreate" });
export type CreateWebhookInput = z.output<typeof CreateWebhookInput>;

export const UpdateWebhookInput = z
  .strictObject({
    url: WebhookUrl.optional(),
    events: EventTypes.optional(),
    description: Description.optional(),
    enabled: z.boolean().optional().meta({ description: "false pauses deliveries; true enables a disabled endpoint again." }),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), "give at least one of url, events, description, enabled")
  .meta({ id: "WebhookUpdate" });
export type UpdateWebhookInput = z.output<typeof UpdateWebhookInput>;

export const Webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    description: z.string(),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().meta({ description: "Why deliveries stopped, when Voicedraft disabled the endpoint (null otherwise)." }),
    disabled_at: z.iso.datetime().nullable(),
    previous_secret_expires_at: z.iso.datetime().nullable().meta({ description: "Until then, after a rotation, deliveries are also signed with the previous secret." }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Webhook" });
export type Webhook = z.output<typeof Webhook>;

const Secret = z.string().meta({
  description: "The signing secret (Standard Webhooks, whsec_ and base64). Shown only in this answer: keep it now.",
  example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
});
export const WebhookResult = z.object({ webhook: Webhook }).meta({ id: "WebhookResult" });
export const WebhookWithSecret = z.object({ webhook: Webhook, secret: Secret }).meta({ id: "WebhookWithSecret" });
export const WebhookList = z.object({ webhooks: z.array(Webhook).meta({ description: "Your endpoints, oldest first." }) }).meta({ id: "WebhookList" });
export const WebhookDeleteResult = z.object({ deleted: Webhook }).meta({ id: "WebhookDeleteResult" });

export const WebhookAttempt = z
  .object({
    attempted_at: z.iso.datetime(),
    status_code: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when there was no answer." }),
    duration_ms: z.number().int(),
    error: z.string().nullable().meta({ description: "Why the attempt failed (timeout, refused address, non-2xx status, …); null when delivered." }),
    response_excerpt: z.string().nullable().meta({ description: "The first 200 characters of the answer's body." }),
  })
  .meta({ id: "WebhookAttempt" });

export const WebhookDelivery = z
  .object({
    id: z.string(),
    event_id: z.string().meta({ description: "The webhook-id header: the same on every attempt and redelivery (deduplicate on it)." }),
    type: z.string().meta({ example: "transcription.completed" }),
    status: z.enum(["pending", "delivered", "failed"]).meta({ description: "pending: an attempt is due; delivered: a 2xx came back; failed: every retry failed." }),
    next_attempt_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
    attempts: z.array(WebhookAttempt).meta({ description: "Every attempt, the oldest first." }),
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDelivery = z.output<typeof WebhookDelivery>;

export const DeliveryListQuery = z.strictObject({
  limit: integerText((n) => n.min(1).max(100)).default(20).meta({ description: "Deliveries per page (1–100, default 20)." }),
  cursor: z.string().max(200).optional().meta({ description: "next_cursor of the previous page." }),
});
export const WebhookDeliveryList = z
  .object({
    deliveries: z.array(WebhookDelivery).meta({ description: "The newest first." }),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: "WebhookDeliveryList" });
export const WebhookDeliveryResult = z.object({ delivery: WebhookDelivery }).meta({ id: "WebhookDeliveryResult" });
