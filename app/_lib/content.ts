import { api } from "@/app/_lib/api.ts";

// The content API as the browser uses it (masters, variants, channels, presets, delivery evidence).

export type ContentItem = {
  id: string;
  kind: "master" | "variant";
  master_id: string | null;
  title: string;
  body: string;
  content_hash: string;
  version: number;
  channel_id: string | null;
  preset_id: string | null;
  posts: string[] | null;
  generation: { state: "queued" | "running" | "succeeded" | "failed" | "conflicted" | "superseded"; error: string | null } | null;
  approval: { state: "awaiting_approval" | "approved"; approved_hash: string | null } | null;
  freshness: "fresh" | "stale" | null;
  created_at: string;
  updated_at: string;
};
export type Delivery = { id: string; item_id: string; method: string; state: string; content_hash: string; created_at: string };
export type Family = { master: ContentItem; variants: ContentItem[]; deliveries: Delivery[] };
export type Channel = { id: string; platform: string; name: string; active: boolean };
export type Preset = { id: string; built_in: boolean; name: string; tone: string; length: string; format: string };

const item = (id: string) => `/api/v1/content/items/${encodeURIComponent(id)}`;

export const getFamily = (id: string) => api<Family>(`${item(id)}/family`);

export const createMaster = (input: { source_transcription_id?: string; title?: string; body?: string }) =>
  api<{ item: ContentItem }>("/api/v1/content/items", { method: "POST", json: input }).then((r) => r.item);

export const editItem = (id: string, input: { expected_content_hash: string; title?: string; body?: string }) =>
  api<{ item: ContentItem }>(item(id), { method: "PATCH", json: input }).then((r) => r.item);

export const createVariants = (masterId: string, targets: { channel_id: string; preset_id: string }[]) =>
  api(`${item(masterId)}/variants`, { method: "POST", json: { client_request_id: crypto.randomUUID(), targets } });

export const regenerate = (id: string) => api(`${item(id)}/regenerate`, { method: "POST", json: { source: "master" } });

export const approveItem = (id: string, contentHash: string) =>
  api<{ item: ContentItem }>(`${item(id)}/approve`, { method: "POST", json: { content_hash: contentHash } }).then((r) => r.item);

export type DeliveryMethod = "share" | "copy" | "export";
export type ClientDeliveryState = "initiated" | "presented" | "cancelled" | "failed";

export const recordDelivery = (
  id: string,
  input: { method: DeliveryMethod; state: ClientDeliveryState; content_hash: string; delivery_id?: string },
) => api<{ delivery: Delivery }>(`${item(id)}/deliveries`, { method: "POST", json: { client_event_id: crypto.randomUUID(), ...input } }).then((r) => r.delivery);

export const confirmManualDelivery = (id: string, input: { content_hash: string; published_url?: string }) =>
  api<{ delivery: Delivery }>(`${item(id)}/deliveries/manual`, { method: "POST", json: { client_event_id: crypto.randomUUID(), ...input } }).then(
    (r) => r.delivery,
  );

export const listChannels = () => api<{ channels: Channel[] }>("/api/v1/channels").then((r) => r.channels);
export const listPresets = () => api<{ presets: Preset[] }>("/api/v1/presets").then((r) => r.presets);
