"use client";

import { useCallback, useEffect, useState } from "react";
import { ApiRequestError } from "@/app/_lib/api.ts";
import { getFamily, listChannels, listPresets, createVariants, type Channel, type Family, type Preset } from "@/app/_lib/content.ts";
import { ItemEditor } from "@/app/_components/item-editor.tsx";
import { VariantCard } from "@/app/_components/variant-card.tsx";
import { platformName } from "@/app/_components/platforms.ts";

const POLL_MS = 1500;

export function ContentFamilyView({ id }: { id: string }) {
  const [family, setFamily] = useState<Family | null>(null);
  const [channels, setChannels] = useState<Channel[]>([]);
  const [presets, setPresets] = useState<Preset[]>([]);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const load = useCallback(async () => {
    try {
      const f = await getFamily(id);
      setFamily(f);
      return f;
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
      return null;
    }
  }, [id]);

  const generating = family?.variants.some((v) => v.generation?.state === "queued" || v.generation?.state === "running") ?? false;

  useEffect(() => {
    // Loading on mount is the point of this effect.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
    Promise.all([listChannels(), listPresets()])
      .then(([c, p]) => {
        setChannels(c);
        setPresets(p);
      })
      .catch(() => undefined);
  }, [load]);

  // Live generation state: poll while any variant is being generated.
  useEffect(() => {
    if (!generating) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [generating, load]);

  async function generate(form: FormData) {
    const presetId = String(form.get("preset") ?? "");
    const targets = form.getAll("channel").map((c) => ({ channel_id: String(c), preset_id: presetId }));
    if (!family || !targets.length) return setMessage({ ok: false, text: "Choose at least one channel." });
    try {
      await createVariants(family.master.id, targets);
      setMessage({ ok: true, text: "Generating…" });
      await load();
    } catch (err) {
      setMessage({ ok: false, text: err instanceof ApiRequestError ? err.message : "Could not start generating." });
    }
  }

  if (!family) return <p aria-live="polite">{message?.text ?? "Loading…"}</p>;
  const active = channels.filter((c) => c.active);
  const name = (list: { id: string; name: string }[], itemId: string | null) => list.find((x) => x.id === itemId)?.name ?? "";
  return (
    <div className="stack">
      <h1>{family.master.title || "Untitled"}</h1>
      <p aria-live="polite" className={message?.ok ? "ok" : "error"}>
        {message?.text}
      </p>
      <section aria-labelledby="master-heading" className="card stack">
        <h2 id="master-heading">Source text</h2>
        <ItemEditor item={family.master} idPrefix="master" onSaved={load} />
      </section>
      <section aria-labelledby="generate-heading" className="card stack">
        <h2 id="generate-heading">Versions for your channels</h2>
        {active.length === 0 ? (
          <p>
            Add a channel first (Settings → <a href="/channels">Channels</a>).
          </p>
        ) : (
          <form className="stack" action={generate}>
            <fieldset>
              <legend>Channels</legend>
              {active.map((c) => (
                <div key={c.id} className="check">
                  <input id={`channel-${c.id}`} type="checkbox" name="channel" value={c.id} defaultChecked />{" "}
                  <label htmlFor={`channel-${c.id}`}>
                    {c.name} ({platformName(c.platform)})
                  </label>
                </div>
              ))}
            </fieldset>
            <label htmlFor="preset">Style</label>
            <select id="preset" name="preset">
              {presets.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
            <button type="submit">Write posts</button>
          </form>
        )}
      </section>
      <ul className="plain" aria-label="Posts">
        {family.variants.map((variant) => (
          <li key={variant.id}>
            <VariantCard
              variant={variant}
              channelName={name(channels, variant.channel_id)}
              presetName={name(presets, variant.preset_id)}
              deliveries={family.deliveries.filter((d) => d.item_id === variant.id)}
              onChanged={load}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
