"use client";

import { useState, type FormEvent } from "react";
import { Check, Plus } from "lucide-react";
import { PLATFORMS as ALL_PLATFORMS } from "@/lib/channels/platforms.ts";
import { createChannel, type Channel, type Preset } from "@/app/_lib/posts/content.ts";
import { Button, Notice } from "@/app/_ui/index.ts";
import { platformName } from "@/app/_components/posts/platforms.ts";
import { PlatformSelect } from "@/app/_components/posts/platform-select.tsx";
import styles from "./posts.module.css";

type Platform = Channel["platform"];
export const PLATFORMS: readonly Platform[] = ALL_PLATFORMS;

/** Channel chips to pick, each with its style (the platform's default preselected), and a channel added in place. */
export function ChannelPicker(props: {
  channels: Channel[];
  presets: Preset[];
  picked: Record<string, string>;
  /** The person has no channel at all: the add form is open from the start. */
  noChannelsYet: boolean;
  onPick: (channel: Channel, on: boolean) => void;
  onPreset: (channelId: string, presetId: string) => void;
  onAdded: (channel: Channel) => void;
}) {
  const { channels, presets, picked } = props;
  const [adding, setAdding] = useState(props.noChannelsYet);
  const chosen = channels.filter((c) => picked[c.id]);
  return (
    <div className="stack">
      <div className={styles.chips} role="group" aria-label="Channels">
        {channels.map((c) => (
          <button key={c.id} type="button" className={styles.chip} aria-pressed={!!picked[c.id]} onClick={() => props.onPick(c, !picked[c.id])}>
            {picked[c.id] ? <Check size={18} aria-hidden="true" /> : <Plus size={18} aria-hidden="true" />}
            <span className={styles.chipLabel}>{c.name}</span>
          </button>
        ))}
        {!adding && (
          <button type="button" className={`${styles.chip} ${styles.chipAdd}`} onClick={() => setAdding(true)}>
            <Plus size={18} aria-hidden="true" /> Add channel
          </button>
        )}
      </div>
      {adding && (
        <AddChannel
          first={props.noChannelsYet}
          onCancel={props.noChannelsYet ? undefined : () => setAdding(false)}
          onAdded={(c) => {
            setAdding(false);
            props.onAdded(c);
          }}
        />
      )}
      {chosen.length > 0 && (
        <ul className={styles.targets} aria-label="Style for each channel">
          {chosen.map((c) => (
            <li key={c.id} className={styles.target}>
              <label className={styles.targetName} htmlFor={`preset-${c.id}`}>
                {c.name}
              </label>
              <select id={`preset-${c.id}`} value={picked[c.id]} onChange={(e) => props.onPreset(c.id, e.target.value)} aria-label={`Style for ${c.name}`}>
                {presets.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function AddChannel({ first, onAdded, onCancel }: { first: boolean; onAdded: (c: Channel) => void; onCancel?: () => void }) {
  const [platform, setPlatform] = useState<Platform>("linkedin");
  const [name, setName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    try {
      onAdded(await createChannel({ platform, name: (name ?? platformName(platform)).trim() || platformName(platform) }));
      setName(null);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className={styles.addForm} onSubmit={add} aria-label="Add a channel">
      {first && <p className={styles.eyebrow}>Add where you post: a platform and your name for it. No password needed.</p>}
      <div className={styles.addRow}>
        <PlatformSelect id="new-channel-platform" platforms={PLATFORMS} value={platform} onChange={setPlatform} />
        <div className={styles.fieldCol}>
          <label htmlFor="new-channel-name">Name</label>
          <input id="new-channel-name" type="text" value={name ?? platformName(platform)} onChange={(e) => setName(e.target.value)} maxLength={100} required />
        </div>
      </div>
      {error && <Notice tone="danger">{error}</Notice>}
      <div className="row">
        <Button type="submit" disabled={saving} className={styles.grow}>
          <Plus size={18} aria-hidden="true" /> Add channel
        </Button>
        {onCancel && (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
