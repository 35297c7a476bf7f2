import { client, ok, type Schemas } from "@/app/_lib/api-client.ts";

// Settings → Webhooks through the generated client: the person's endpoints, their delivery log,
// and what they do by hand (test, redeliver, rotate). Wire types are the OpenAPI document's.

export type Webhook = Schemas["Webhook"];
export type WebhookEvent = Webhook["events"][number];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type WebhookAttempt = Schemas["WebhookAttempt"];
export type NewWebhook = Schemas["WebhookCreate"];
export type WebhookChange = Schemas["WebhookUpdate"];

const one = (id: string) => ({ params: { path: { id } } });

export const listWebhooks = () => ok(client.GET("/api/v1/webhooks")).then((r) => r.webhooks);
/** The new endpoint and its secret: the only time the secret is shown. */
export const createWebhook = (body: NewWebhook) => ok(client.POST("/api/v1/webhooks", { body }));
export const updateWebhook = (id: string, body: WebhookChange) => ok(client.PATCH("/api/v1/webhooks/{id}", { ...one(id), body })).then((r) => r.webhook);
export const deleteWebhook = (id: string) => ok(client.DELETE("/api/v1/webhooks/{id}", one(id)));
/** A new secret (shown only in this answer); the previous one keeps signing for 24 hours. */
export const rotateWebhookSecret = (id: string) => ok(client.POST("/api/v1/webhooks/{id}/rotate-secret", one(id)));
/** Queues a webhook.test event; its delivery is in the answer, pending until the attempt ends. */
export const sendTestEvent = (id: string) => ok(client.POST("/api/v1/webhooks/{id}/test", one(id))).then((r) => r.delivery);
export const listWebhookDeliveries = (id: string, cursor?: string | null, limit = 20) =>
  ok(client.GET("/api/v1/webhooks/{id}/deliveries", { params: { path: { id }, query: { limit, ...(cursor ? { cursor } : {}) } } }));
export const redeliverWebhook = (id: string, deliveryId: string) =>
  ok(client.POST("/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver", { params: { path: { id, delivery_id: deliveryId } } })).then((r) => r.delivery);
