import { defineOperation, idParameter, pathsOf, type ApiArea, type ErrorCases } from "@/lib/openapi/operation.ts";
import {
  CreateWebhookInput,
  DeliveryListQuery,
  PREVIOUS_SECRET_HOURS,
  UpdateWebhookInput,
  WEBHOOK_EVENT_TYPES,
  Webhook,
  WebhookAttempt,
  WebhookDeleteResult,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookDeliveryResult,
  WebhookList,
  WebhookResult,
  WebhookWithSecret,
  WEBHOOKS_MAX,
} from "@/lib/webhooks/schemas.ts";

// Webhooks: endpoints of yours that are POSTed an event when something happens (Standard Webhooks 1.0).
// They carry your notes and posts, so they need the scope that reads notes.
const tag = "Webhooks";
const scope = "transcribe";
const ID = idParameter("The id of one of your webhooks.");
const NOT_FOUND: ErrorCases = { not_found: "You have no webhook with this id (another user's id is not found either)." };
const URL_REFUSED =
  "The URL leads to a loopback, private, link-local, unique-local or cloud-metadata address (loopback and private ones are " +
  "allowed when the server sets WEBHOOKS_ALLOW_PRIVATE=true); details says which.";

export const createWebhook = defineOperation({
  method: "post",
  path: "/api/v1/webhooks",
  id: "createWebhook",
  tag,
  summary: "Add a webhook",
  description: "A new endpoint, sent the events it names from now on. The answer holds its signing secret: the only time it is shown.",
  scope,
  body: CreateWebhookInput,
  responses: { 201: { description: "Added; keep the secret now.", schema: WebhookWithSecret } },
  errors: { webhook_url_not_allowed: URL_REFUSED, webhook_limit_reached: `You have ${WEBHOOKS_MAX} webhooks; delete one first.` },
});

export const listWebhooks = defineOperation({
  method: "get",
  path: "/api/v1/webhooks",
  id: "listWebhooks",
  tag,
  summary: "List your webhooks",
  description: "Your endpoints, oldest first (without their secrets).",
  scope,
  responses: { 200: { description: "Your webhooks.", schema: WebhookList } },
});

export const getWebhook = defineOperation({
  method: "get",
  path: "/api/v1/webhooks/{id}",
  id: "getWebhook",
  tag,
  summary: "Get a webhook",
  description: "One endpoint, and why it was disabled when it was.",
  scope,
  parameters: ID,
  responses: { 200: { description: "The webhook.", schema: WebhookResult } },
  errors: NOT_FOUND,
});

export const updateWebhook = defineOperation({
  method: "patch",
  path: "/api/v1/webhooks/{id}",
  id: "updateWebhook",
  tag,
  summary: "Change a webhook",
  description: "Changes the URL, events, description or `enabled`. Enabling a disabled endpoint clears why it was disabled.",
  scope,
  parameters: ID,
  body: UpdateWebhookInput,
  responses: { 200: { description: "The webhook as changed.", schema: WebhookResult } },
  errors: { ...NOT_FOUND, webhook_url_not_allowed: URL_REFUSED },
});

export const deleteWebhook = defineOperation({
  method: "delete",
  path: "/api/v1/webhooks/{id}",
  id: "deleteWebhook",
  tag,
  summary: "Delete a webhook",
  description: "Removes the endpoint and its delivery log; deliveries still due are not sent.",
  scope,
  parameters: ID,
  responses: { 200: { description: "Deleted; the webhook as it was.", schema: WebhookDeleteResult } },
  errors: NOT_FOUND,
});

export const rotateWebhookSecret = defineOperation({
  method: "post",
  path: "/api/v1/webhooks/{id}/rotate-secret",
  id: "rotateWebhookSecret",
  tag,
  summary: "Rotate a webhook's secret",
  description:
    `A new signing secret, shown only in this answer. For ${PREVIOUS_SECRET_HOURS} hours deliveries carry two signatures ` +
    "(the new secret's and the previous one's) in webhook-signature, so a receiver keeps verifying while you switch it over.",
  scope,
  parameters: ID,
  responses: { 200: { description: "The new secret; keep it now.", schema: WebhookWithSecret } },
  errors: NOT_FOUND,
});

export const listWebhookDeliveries = defineOperation({
  method: "get",
  path: "/api/v1/webhooks/{id}/deliveries",
  id: "listWebhookDeliveries",
  tag,
  summary: "List a webhook's deliveries",
  description: "The events sent to this endpoint, newest first, each with every attempt: time, status code, duration, error. Follow next_cursor until it is null.",
  scope,
  parameters: ID,
  query: DeliveryListQuery,
  responses: { 200: { description: "A page of deliveries.", schema: WebhookDeliveryList } },
  errors: { ...NOT_FOUND, validation_failed: "limit is not 1–100, or cursor is not one this list gave." },
});

export const redeliverWebhook = defineOperation({
  method: "post",
  path: "/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver",
  id: "redeliverWebhook",
  tag,
  summary: "Send a delivery again",
  description: "Sends the same event again (same webhook-id and body, signed anew) as soon as a worker is free; the attempt joins its log.",
  scope,
  parameters: [...ID, { name: "delivery_id", in: "path", required: true, description: "The id of one of its deliveries.", schema: { type: "string" } }],
  responses: { 202: { description: "Queued.", schema: WebhookDeliveryResult } },
  errors: { not_found: "You have no webhook with this id, or it has no delivery with this id." },
});

export const testWebhook = defineOperation({
  method: "post",
  path: "/api/v1/webhooks/{id}/test",
  id: "testWebhook",
  tag,
  summary: "Send a test event",
  description: "Sends a `webhook.test` event (also to a paused endpoint) as soon as a worker is free; its delivery shows in the log.",
  scope,
  parameters: ID,
  responses: { 202: { description: "Queued.", schema: WebhookDeliveryResult } },
  errors: NOT_FOUND,
});

export const webhooksArea: ApiArea = {
  tag: {
    name: tag,
    description:
      `Tell other tools when something happens: ${WEBHOOK_EVENT_TYPES.join(", ")}. Deliveries are signed (Standard Webhooks), ` +
      "retried for about a day, and refused to private addresses; the API guide shows how to verify them.",
  },
  schemas: [
    CreateWebhookInput,
    UpdateWebhookInput,
    Webhook,
    WebhookResult,
    WebhookWithSecret,
    WebhookList,
    WebhookDeleteResult,
    WebhookAttempt,
    WebhookDelivery,
    WebhookDeliveryList,
    WebhookDeliveryResult,
  ],
  paths: pathsOf(createWebhook, listWebhooks, getWebhook, updateWebhook, deleteWebhook, rotateWebhookSecret, listWebhookDeliveries, redeliverWebhook, testWebhook),
};
