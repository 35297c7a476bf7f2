import type { Channel, Family, Preset } from "@/app/_lib/posts/content.ts";

// The posts page before anything is stored ("Make posts" opens with the note's text and the
// channels to write for), and the channels it picks at first.

export const SOURCE_WORDS = { edited: "your edited note", optimized: "the cleaned-up note", recognized: "the note as recognized" } as const;

/** Every active channel that has no post yet, with its platform's style. */
export function preselect(family: Family, channels: Channel[]): Record<string, string> {
  const written = new Set(family.variants.map((v) => v.channel_id));
  return Object.fromEntries(channels.filter((c) => c.active && !written.has(c.id)).map((c) => [c.id, c.default_preset_id]));
}

/** What the server read for this page's first paint (each part missing is fetched on mount). */
export type FamilySeed = { family?: Family; channels?: Channel[]; presets?: Preset[] };

/**
 * Posts not written yet: what "Make posts" opens with. Nothing is stored until the person writes
 * posts (then the master is created, and the page becomes its page), so looking costs no item.
 */
export type DraftSource = { input: { source_transcription_id: string } | { body: string }; title: string; body: string; kind: keyof typeof SOURCE_WORDS | null };

export function draftFamily(draft: DraftSource): Family {
  const master = {
    id: "", kind: "master", master_id: null, title: draft.title, body: draft.body, content_hash: "draft", version: 0,
    source_transcription_id: "source_transcription_id" in draft.input ? draft.input.source_transcription_id : null,
    source_text_kind: draft.kind, channel_id: null, preset_id: null, posts: null, source: null, generation: null, approval: null,
  } as unknown as Family["master"];
  return { master, variants: [], deliveries: [] } as unknown as Family;
}

