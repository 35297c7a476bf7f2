"use client";

import { useState } from "react";
import { approveItem, confirmManualDelivery, regenerate, type ContentItem, type Delivery } from "@/app/_lib/content.ts";
import { canShare, copyVariant, downloadVariant, shareVariant, type ShareOutcome } from "@/app/_lib/share.ts";
import { ItemEditor } from "@/app/_components/item-editor.tsx";

const DELIVERY: Record<string, string> = {
  presented: "Share sheet shown",
  cancelled: "Sharing cancelled",
  failed: "Sharing failed",
  copied: "Copied",
  downloaded: "Downloaded",
  confirmed_manual: "You confirmed it is published",
};

const OUTCOME: Record<ShareOutcome, string> = {
  presented: "The share sheet was shown. Post it there, then confirm below once it is published.",
  cancelled: "Sharing was cancelled.",
  failed: "Sharing failed.",
  copied: "Copied to the clipboard.",
  downloaded: "Downloaded as a text file.",
  unsupported: "This browser cannot share; copy or download instead.",
};

export function VariantCard(props: {
  variant: ContentItem;
  channelName: string;
  presetName: string;
  deliveries: Delivery[];
  onChanged: () => Promise<unknown>;
}) {
  const { variant, deliveries, onChanged } = props;
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const generation = variant.generation?.state;
  const busy = generation === "queued" || generation === "running";
  const approved = variant.approval?.state === "approved";
  const fresh = variant.freshness === "fresh";
  const confirmed = deliveries.some((d) => d.state === "confirmed_manual" && d.content_hash === variant.content_hash);

  async function run(action: () => Promise<ShareOutcome | string>) {
    try {
      const outcome = await action();
      setMessage({ ok: outcome !== "failed", text: outcome in OUTCOME ? OUTCOME[outcome as ShareOutcome] : outcome });
      await onChanged();
    } catch (err) {
      setMessage({ ok: false, text: (err as Error).message });
    }
  }

  async function confirmPublished(form: FormData) {
    const url = String(form.get("published_url") ?? "").trim();
    await run(async () => {
      await confirmManualDelivery(variant.id, { content_hash: variant.content_hash, ...(url && { published_url: url }) });
      setConfirming(false);
      return "Recorded: you published this version yourself.";
    });
  }

  const label = props.channelName || "Post";
  return (
    <article className="card stack" aria-label={`Post for ${label}`} data-testid="variant">
      <h2>
        {label} <span className="muted">· {props.presetName}</span>
      </h2>
      <p className="row" data-testid="variant-state">
        <span className="status">{busy ? "Writing…" : generation === "failed" ? "Could not be written" : approved ? "Approved" : "Ready to review"}</span>
        <span className={fresh ? "ok" : "error"}>{fresh ? "Up to date" : "Out of date: the source text changed"}</span>
        {confirmed && <span className="ok">Published (confirmed by you)</span>}
      </p>
      {!busy && <ItemEditor item={variant} idPrefix={`variant-${variant.id}`} onSaved={onChanged} />}
      <div className="row">
        <button type="button" disabled={busy || approved} onClick={() => run(() => approveItem(variant.id, variant.content_hash).then(() => "Approved."))}>
          Approve
        </button>
        {!fresh && (
          <button type="button" className="secondary" disabled={busy} onClick={() => run(() => regenerate(variant.id).then(() => "Rewriting from the source text…"))}>
            Rewrite from the source text
          </button>
        )}
      </div>
      <div className="row">
        <button type="button" disabled={busy} onClick={() => run(() => shareVariant(variant))}>
          Share
        </button>
        {canShare() && (
          <button type="button" className="secondary" disabled={busy} onClick={() => run(() => shareVariant(variant, { asFile: true }))}>
            Share as file
          </button>
        )}
        <button type="button" className="secondary" disabled={busy} onClick={() => run(() => copyVariant(variant))}>
          Copy
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={() => run(() => downloadVariant(variant))}>
          Download
        </button>
      </div>
      <p aria-live="polite" className={message?.ok ? "ok" : "error"}>
        {message?.text}
      </p>
      {!confirming ? (
        <button type="button" className="secondary" disabled={!approved || !fresh || busy} onClick={() => setConfirming(true)}>
          I published this manually
        </button>
      ) : (
        <form className="stack" action={confirmPublished} aria-label="Confirm manual publication">
          <p>Only confirm once this exact approved text is live. Voicedraft cannot check it for you.</p>
          <label htmlFor={`url-${variant.id}`}>Where (link, optional)</label>
          <input id={`url-${variant.id}`} name="published_url" type="text" inputMode="url" />
          <div className="row">
            <button type="submit">Confirm: I published it</button>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {!approved || !fresh ? <p className="muted">You can confirm once this post is approved and up to date.</p> : null}
      {deliveries.length > 0 && (
        <details>
          <summary>Sharing history ({deliveries.length})</summary>
          <ul data-testid="deliveries">
            {deliveries.map((d) => (
              <li key={d.id}>
                {DELIVERY[d.state] ?? d.state} <span className="muted">{new Date(d.created_at).toLocaleString()}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </article>
  );
}
