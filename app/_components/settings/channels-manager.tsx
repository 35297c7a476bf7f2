"use client";

import { useState, type FormEvent } from "react";
import { useLoaded } from "@/app/_lib/use-loaded.ts";
import { Megaphone, Plus, Trash2 } from "lucide-react";
import { ApiRequestError } from "@/app/_lib/api.ts";
import { deleteChannel, listChannels, listPresets, updateChannel, type Channel } from "@/app/_lib/posts/content.ts";
import { Button, EmptyState, Field, Notice, Sheet, useToast } from "@/app/_ui/index.ts";
import { ConfirmDelete, ManagedRow } from "@/app/_components/settings/managed-list.tsx";
import { AddChannel, PLATFORMS } from "@/app/_components/posts/channel-picker.tsx";
import { PresetsManager } from "@/app/_components/settings/presets-manager.tsx";
import { PlatformSelect } from "@/app/_components/posts/platform-select.tsx";
import { platformName } from "@/app/_components/posts/platforms.ts";
import styles from "../posts/posts.module.css";

/** Settings → Channels: rename, turn on or off, delete (with what happens to its posts), and the styles. */
export function ChannelsManager() {
  const { data, error, reload: load } = useLoaded(() => Promise.all([listChannels(), listPresets()]));
  const [channels, presets] = data ?? [null, null];
  const [editing, setEditing] = useState<Channel | null>(null);
  const [adding, setAdding] = useState(false);


  const presetName = (id: string) => presets?.find((p) => p.id === id)?.name ?? "";
  return (
    <div className="stack">
      {error && (
        <Notice tone="danger" role="alert">
          {error}
        </Notice>
      )}
      <section aria-labelledby="channels-heading" className="stack">
        <h2 id="channels-heading" className={styles.sectionTitle}>
          Channels
        </h2>
        {channels === null ? (
          <p className="muted">Loading…</p>
        ) : channels.length === 0 && !adding ? (
          <EmptyState icon={<Megaphone size={26} />} title="No channels yet">
            A channel is where you post: a platform and your name for it. You can also add one while making posts.
          </EmptyState>
        ) : (
          <ul className={styles.posts} aria-label="Channels">
            {channels.map((c) => (
              <ManagedRow
                key={c.id}
                testId="channel"
                name={c.name}
                detail={`${platformName(c.platform)} · ${presetName(c.default_preset_id)}`}
                badge={c.active ? (c.write_for_every_note ? "Every note" : undefined) : "Off"}
                onEdit={() => setEditing(c)}
              />
            ))}
          </ul>
        )}
        {adding ? (
          <AddChannel
            first={false}
            onCancel={() => setAdding(false)}
            onAdded={() => {
              setAdding(false);
              void load();
            }}
          />
        ) : (
          <Button variant="secondary" onClick={() => setAdding(true)}>
            <Plus size={18} aria-hidden="true" /> Add channel
          </Button>
        )}
      </section>
      <Sheet open={editing !== null} onClose={() => setEditing(null)} title="Edit channel">
        {editing && <ChannelEditor key={editing.id} channel={editing} onDone={() => (setEditing(null), load())} />}
      </Sheet>
      {presets && <PresetsManager presets={presets} onChanged={load} />}
    </div>
  );
}

function ChannelEditor({ channel, onDone }: { channel: Channel; onDone: () => void }) {
  const toast = useToast();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [inUse, setInUse] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    try {
      await updateChannel(channel.id, {
        name: String(form.get("name") ?? ""),
        platform: String(form.get("platform")) as Channel["platform"],
        active: form.get("active") === "on",
        write_for_every_note: form.get("every_note") === "on",
      });
      toast("Channel saved.");
      onDone();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  async function remove() {
    try {
      await deleteChannel(channel.id);
      toast(`“${channel.name}” deleted.`);
      onDone();
    } catch (err) {
      if (err instanceof ApiRequestError && err.code === "channel_in_use") setInUse(true);
      else setError((err as Error).message);
    }
  }

  async function turnOff() {
    try {
      await updateChannel(channel.id, { active: false });
      toast(`“${channel.name}” is off: it is no longer offered when making posts.`);
      onDone();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  if (confirmDelete)
    return (
      <ConfirmDelete
        name={channel.name}
        kind="channel"
        explanation="Posts already written for a channel keep it, so a channel with posts cannot be deleted — you can turn it off instead. A channel without posts is removed for good."
        inUse={inUse ? "Posts were already written for this channel, so it stays: they keep their text, approvals and history. Turn it off to stop offering it." : null}
        error={error}
        instead={
          <Button block onClick={turnOff}>
            Turn it off instead
          </Button>
        }
        onDelete={remove}
        onKeep={() => setConfirmDelete(false)}
      />
    );

  return (
    <form className="stack" onSubmit={save} aria-label={`Edit ${channel.name}`}>
      <Field id="edit-channel-name" name="name" label="Name" defaultValue={channel.name} required maxLength={100} />
      <PlatformSelect id="edit-channel-platform" platforms={PLATFORMS} name="platform" defaultValue={channel.platform} />
      <label className="check">
        <input type="checkbox" name="active" defaultChecked={channel.active} /> Offer it when making posts
      </label>
      <label className="check">
        <input type="checkbox" name="every_note" defaultChecked={channel.write_for_every_note} /> Write a post for it from every note, as soon as the note is ready
      </label>
      {error && <Notice tone="danger">{error}</Notice>}
      <Button type="submit" size="large" block>
        Save
      </Button>
      <Button variant="danger" block onClick={() => setConfirmDelete(true)}>
        <Trash2 size={18} aria-hidden="true" /> Delete…
      </Button>
    </form>
  );
}
