import type { z } from "zod";
import { api, ApiRequestError } from "@/app/_lib/api.ts";
import type {
  ApproveInput,
  ContentFamily,
  ContentItem as ContentItemSchema,
  ContentItemList,
  CreateMasterInput,
  CreateVariantsInput,
  Delivery as DeliverySchema,
  EditItemInput,
  ManualDeliveryInput,
  RecordDeliveryInput,
  RegenerateInput,
} from "@/lib/content/schemas.ts";
import type { Channel as ChannelSchema, CreateChannelInput, UpdateChannelInput } from "@/lib/channels/schemas.ts";
import type { CreatePresetInput, Preset as PresetSchema, UpdatePresetInput } from "@/lib/presets/schemas.ts";

// The content API as the browser uses it (masters, variants, channels, presets, delivery evidence).
// Wire types come from the server's zod schemas (types only: nothing of the server is bundled).

export type ContentItem = z.output<typeof ContentItemSchema>;
export type Delivery = z.output<typeof DeliverySchema>;
export type Family = z.output<typeof ContentFamily>;
export type Channel = z.output<typeof ChannelSchema>;
export type Preset = z.output<typeof PresetSchema>;
type In<T extends z.ZodType> = z.input<T>;

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

const item = (id: string) => `/api/v1/content/items/${encodeURIComponent(id)}`;

export const getFamily = (id: string) => withRetry(() => api<Family>(`${item(id)}/family`));

export const listMasters = (limit = 50) =>
  withRetry(() => api<z.output<typeof ContentItemList>>(`/api/v1/content/items?limit=${limit}`)).then((r) => r.items);

/** The posts already started from a note, newest first (to reopen them rather than start again). */
export const mastersOfNote = (transcriptionId: string) =>
  withRetry(() =>
    api<z.output<typeof ContentItemList>>(`/api/v1/content/items?limit=1&source_transcription_id=${encodeURIComponent(transcriptionId)}`),
  ).then((r) => r.items);

export const createMaster = (input: In<typeof CreateMasterInput>) =>
  api<{ item: ContentItem }>("/api/v1/content/items", { method: "POST", json: input }).then((r) => r.item);

// Edits carry the hash they were made on: a repeat after success is refused (409), never applied twice.
export const editItem = (id: string, input: In<typeof EditItemInput>) =>
  withRetry(() => api<{ item: ContentItem }>(item(id), { method: "PATCH", json: input })).then((r) => r.item);

export const createVariants = (masterId: string, input: In<typeof CreateVariantsInput>) =>
  withRetry(() => api(`${item(masterId)}/variants`, { method: "POST", json: input }));

export const regenerate = (id: string, input: In<typeof RegenerateInput>) =>
  api<{ item: ContentItem }>(`${item(id)}/regenerate`, { method: "POST", json: input }).then((r) => r.item);

export const approveItem = (id: string, contentHash: string) =>
  withRetry(() => api<{ item: ContentItem }>(`${item(id)}/approve`, { method: "POST", json: { content_hash: contentHash } satisfies In<typeof ApproveInput> })).then(
    (r) => r.item,
  );

export type DeliveryMethod = In<typeof RecordDeliveryInput>["method"];

export const recordDelivery = (id: string, input: In<typeof RecordDeliveryInput>) =>
  withRetry(() => api<{ delivery: Delivery }>(`${item(id)}/deliveries`, { method: "POST", json: input })).then((r) => r.delivery);

export const confirmManualDelivery = (id: string, input: In<typeof ManualDeliveryInput>) =>
  withRetry(() => api<{ delivery: Delivery; replayed: boolean }>(`${item(id)}/deliveries/manual`, { method: "POST", json: input }));

const channel = (id: string) => `/api/v1/channels/${encodeURIComponent(id)}`;
export const listChannels = () => withRetry(() => api<{ channels: Channel[] }>("/api/v1/channels")).then((r) => r.channels);
export const createChannel = (input: In<typeof CreateChannelInput>) =>
  api<{ channel: Channel }>("/api/v1/channels", { method: "POST", json: input }).then((r) => r.channel);
export const updateChannel = (id: string, input: In<typeof UpdateChannelInput>) =>
  withRetry(() => api<{ channel: Channel }>(channel(id), { method: "PATCH", json: input })).then((r) => r.channel);
export const deleteChannel = (id: string) => api(channel(id), { method: "DELETE" });

const preset = (id: string) => `/api/v1/presets/${encodeURIComponent(id)}`;
export const listPresets = () => withRetry(() => api<{ presets: Preset[] }>("/api/v1/presets")).then((r) => r.presets);
export const createPreset = (input: In<typeof CreatePresetInput>) =>
  api<{ preset: Preset }>("/api/v1/presets", { method: "POST", json: input }).then((r) => r.preset);
export const updatePreset = (id: string, input: In<typeof UpdatePresetInput>) =>
  withRetry(() => api<{ preset: Preset }>(preset(id), { method: "PATCH", json: input })).then((r) => r.preset);
export const deletePreset = (id: string) => api(preset(id), { method: "DELETE" });

/** Every post started from a note (to name them before the note is deleted). */
export const postsOfNote = (transcriptionId: string) =>
  withRetry(() =>
    api<z.output<typeof ContentItemList>>(`/api/v1/content/items?limit=100&source_transcription_id=${encodeURIComponent(transcriptionId)}`),
  ).then((r) => r.items);
