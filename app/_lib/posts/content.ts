import { ApiRequestError, client, ok, type Schemas } from "@/app/_lib/api-client.ts";

// The content API as the browser uses it (masters, variants, channels, presets, delivery
// evidence), through the generated client (app/_lib/api-client.ts). Wire types are the OpenAPI document's.

export type ContentItem = Schemas["ContentItem"];
export type Delivery = Schemas["Delivery"];
export type Family = Schemas["ContentFamily"];
export type Channel = Schemas["Channel"];
export type Preset = Schemas["Preset"];
export type DeliveryMethod = Schemas["DeliveryInput"]["method"];

/**
 * One id per user action: make it when the person taps, pass it to every attempt of that action
 * (automatic retries here, or a "Try again" tap), so the server can replay instead of doing it twice.
 */
export const newActionId = () => crypto.randomUUID();

const RETRY_STATUSES = new Set([0, 429, 502, 503, 504]);
const RETRY_WAITS_MS = [500, 1500];

/** The same request again on a dropped connection or a busy server (used only with idempotent requests). */
async function withRetry<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      const retryable = err instanceof ApiRequestError && RETRY_STATUSES.has(err.status);
      if (!retryable || attempt >= RETRY_WAITS_MS.length) throw err;
      await new Promise((r) => setTimeout(r, RETRY_WAITS_MS[attempt]));
    }
  }
}

const item = (id: string) => ({ params: { path: { id } } });

export const getFamily = (id: string) => withRetry(() => ok(client.GET("/api/v1/content/items/{id}/family", item(id))));

export const listMasters = (limit = 50) => withRetry(() => ok(client.GET("/api/v1/content/items", { params: { query: { limit } } }))).then((r) => r.items);

/** The posts started from a note, newest first: the latest (limit 1) to reopen rather than start again, all to name them before the note is deleted. */
export const postsOfNote = (transcriptionId: string, limit = 100) =>
  withRetry(() => ok(client.GET("/api/v1/content/items", { params: { query: { limit, source_transcription_id: transcriptionId } } }))).then((r) => r.items);

export const createMaster = (body: Schemas["ContentMasterInput"]) => ok(client.POST("/api/v1/content/items", { body })).then((r) => r.item);

// Edits carry the hash they were made on: a repeat after success is refused (409), never applied twice.
export const editItem = (id: string, body: Schemas["ContentEditInput"]) =>
  withRetry(() => ok(client.PATCH("/api/v1/content/items/{id}", { ...item(id), body }))).then((r) => r.item);

export const createVariants = (masterId: string, body: Schemas["VariantsInput"]) =>
  withRetry(() => ok(client.POST("/api/v1/content/items/{id}/variants", { ...item(masterId), body })));

// "Update": the note's current text into the master made from it (its posts then turn stale).
/** The master copies its note's text again, and every post not approved is written again from it. */
export const updateFromNote = (id: string, contentHash: string) =>
  withRetry(() => ok(client.POST("/api/v1/content/items/{id}/refresh-from-note", { ...item(id), body: { expected_content_hash: contentHash, rewrite_posts: true } })));

export const regenerate = (id: string, body: Schemas["RegenerateInput"]) =>
  ok(client.POST("/api/v1/content/items/{id}/regenerate", { ...item(id), body })).then((r) => r.item);

export const approveItem = (id: string, contentHash: string) =>
  withRetry(() => ok(client.POST("/api/v1/content/items/{id}/approve", { ...item(id), body: { content_hash: contentHash } }))).then((r) => r.item);

export const recordDelivery = (id: string, body: Schemas["DeliveryInput"]) =>
  withRetry(() => ok(client.POST("/api/v1/content/items/{id}/deliveries", { ...item(id), body }))).then((r) => r.delivery);

export const confirmManualDelivery = (id: string, body: Schemas["ManualDeliveryInput"]) =>
  withRetry(() => ok(client.POST("/api/v1/content/items/{id}/deliveries/manual", { ...item(id), body })));

export const listChannels = () => withRetry(() => ok(client.GET("/api/v1/channels"))).then((r) => r.channels);
export const createChannel = (body: Schemas["ChannelInput"]) => ok(client.POST("/api/v1/channels", { body })).then((r) => r.channel);
export const updateChannel = (id: string, body: Schemas["ChannelUpdate"]) =>
  withRetry(() => ok(client.PATCH("/api/v1/channels/{id}", { ...item(id), body }))).then((r) => r.channel);
export const deleteChannel = (id: string) => ok(client.DELETE("/api/v1/channels/{id}", item(id)));

export const listPresets = () => withRetry(() => ok(client.GET("/api/v1/presets"))).then((r) => r.presets);
export const createPreset = (body: Schemas["PresetInput"]) => ok(client.POST("/api/v1/presets", { body })).then((r) => r.preset);
export const updatePreset = (id: string, body: Schemas["PresetUpdate"]) =>
  withRetry(() => ok(client.PATCH("/api/v1/presets/{id}", { ...item(id), body }))).then((r) => r.preset);
export const deletePreset = (id: string) => ok(client.DELETE("/api/v1/presets/{id}", item(id)));
