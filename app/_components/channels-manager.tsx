"use client";

import { useCallback, useEffect, useState, type FormEvent } from "react";
import { api } from "@/app/_lib/api.ts";
import { platformName } from "@/app/_components/platforms.ts";
import { listChannels, listPresets, type Channel, type Preset } from "@/app/_lib/content.ts";

const PLATFORMS = ["linkedin", "x", "threads", "bluesky", "mastodon", "instagram", "facebook", "newsletter", "blog", "other"];

export function ChannelsManager() {
  const [channels, setChannels] = useState<Channel[] | null>(null);
  const [presets, setPresets] = useState<Preset[] | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const load = useCallback(async () => {
    try {
      const [c, p] = await Promise.all([listChannels(), listPresets()]);
      setChannels(c);
      setPresets(p);
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  }, []);
  useEffect(() => {
    // Loading on mount is the point of this effect.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
  }, [load]);

  async function act(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      setMessage({ ok: true, text: done });
      await load();
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  }

  function addChannel(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const input = { name: String(data.get("name") ?? ""), platform: String(data.get("platform") ?? "") };
    void act(() => api("/api/v1/channels", { method: "POST", json: input }), `Added the channel “${input.name}”.`).then(() => form.reset());
  }

  function addPreset(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const input = {
      name: String(data.get("preset-name") ?? ""),
      tone: String(data.get("tone") ?? "neutral"),
      length: String(data.get("length") ?? "full"),
      format: String(data.get("format") ?? "single"),
    };
    void act(() => api("/api/v1/presets", { method: "POST", json: input }), `Added the style “${input.name}”.`).then(() => form.reset());
  }

  return (
    <div className="stack">
      <p aria-live="polite" className={message?.ok ? "ok" : "error"}>
        {message?.text}
      </p>
      <section aria-labelledby="channels-heading" className="stack">
        <h2 id="channels-heading">Channels</h2>
        {channels === null ? (
          <p>Loading…</p>
        ) : channels.length === 0 ? (
          <p>No channels yet.</p>
        ) : (
          <ul className="plain" aria-label="Channels">
            {channels.map((c) => (
              <li key={c.id} className="card row">
                <span>
                  <strong>{c.name}</strong> <span className="muted">{platformName(c.platform)}</span> {c.active ? "" : <em>(inactive)</em>}
                </span>
                <button
                  type="button"
                  className="secondary"
                  onClick={() => act(() => api(`/api/v1/channels/${c.id}`, { method: "PATCH", json: { active: !c.active } }), "Saved.")}
                >
                  {c.active ? "Deactivate" : "Activate"} <span className="visually-hidden">{c.name}</span>
                </button>
                <button type="button" className="danger" onClick={() => act(() => api(`/api/v1/channels/${c.id}`, { method: "DELETE" }), "Deleted.")}>
                  Delete <span className="visually-hidden">{c.name}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <form className="stack card" onSubmit={addChannel} aria-label="Add a channel">
          <label htmlFor="channel-name">Channel name</label>
          <input id="channel-name" name="name" type="text" required maxLength={100} />
          <label htmlFor="channel-platform">Platform</label>
          <select id="channel-platform" name="platform" defaultValue="linkedin">
            {PLATFORMS.map((p) => (
              <option key={p} value={p}>
                {platformName(p)}
              </option>
            ))}
          </select>
          <button type="submit">Add channel</button>
        </form>
      </section>
      <section aria-labelledby="presets-heading" className="stack">
        <h2 id="presets-heading">Styles</h2>
        <ul className="plain" aria-label="Styles">
          {(presets ?? []).map((p) => (
            <li key={p.id} className="card">
              <strong>{p.name}</strong> <span className="muted">{[p.tone, p.length, p.format === "thread" ? "thread" : "single post", p.built_in ? "built in" : "yours"].join(" · ")}</span>
            </li>
          ))}
        </ul>
        <form className="stack card" onSubmit={addPreset} aria-label="Add a style">
          <label htmlFor="preset-name">Style name</label>
          <input id="preset-name" name="preset-name" type="text" required maxLength={100} />
          <label htmlFor="preset-tone">Tone</label>
          <select id="preset-tone" name="tone" defaultValue="neutral">
            {["neutral", "casual", "professional", "enthusiastic"].map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
          <label htmlFor="preset-length">Length</label>
          <select id="preset-length" name="length" defaultValue="full">
            {["short", "medium", "full"].map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
          <label htmlFor="preset-format">Format</label>
          <select id="preset-format" name="format" defaultValue="single">
            {["single", "thread"].map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
          <button type="submit">Add style</button>
        </form>
      </section>
    </div>
  );
}
