"use client";

import { Plus, Webhook as WebhookIcon } from "lucide-react";
import { useState } from "react";
import { useLoaded } from "@/app/_lib/use-loaded.ts";
import { createWebhook, listWebhooks, updateWebhook, type Webhook } from "@/app/_lib/webhooks.ts";
import { Button, EmptyState, Notice, Sheet, useToast } from "@/app/_ui/index.ts";
import { DeliveriesLog } from "./deliveries-log.tsx";
import { shortUrl } from "./event-names.ts";
import { NewSecret } from "./new-secret.tsx";
import { WebhookCard } from "./webhook-card.tsx";
import { WebhookForm } from "./webhook-form.tsx";
import { WebhookSettings } from "./webhook-settings.tsx";
import styles from "./webhooks.module.css";

// Settings → Webhooks: your endpoints, oldest first, as cards; adding one, its settings and its
// delivery log open in a sheet, and so does a new secret, the one time it is shown.

type Open = { kind: "add" } | { kind: "settings"; id: string } | { kind: "deliveries"; id: string } | { kind: "secret"; secret: string; rotated: boolean };

const TITLES: Record<Open["kind"], string> = { add: "Add a webhook", settings: "Webhook settings", deliveries: "Deliveries", secret: "Your signing secret" };

export function WebhooksManager() {
  const [open, setOpen] = useState<Open | null>(null);
  const { data: webhooks, error, reload: load } = useLoaded(listWebhooks);
  const toast = useToast();


  async function enable(webhook: Webhook) {
    try {
      await updateWebhook(webhook.id, { enabled: true });
      toast(`“${webhook.description || shortUrl(webhook.url)}” is on again.`);
      await load();
    } catch (err) {
      toast(`Not turned on: ${(err as Error).message}`);
    }
  }

  const current = open && "id" in open ? webhooks?.find((w) => w.id === open.id) : undefined;
  const title = open?.kind === "deliveries" && current ? `Deliveries to ${shortUrl(current.url)}` : open ? TITLES[open.kind] : "";
  return (
    <div className="stack">
      <Button block onClick={() => setOpen({ kind: "add" })}>
        <Plus size={18} aria-hidden="true" /> Add a webhook
      </Button>
      {error && (
        <Notice tone="danger" role="alert">
          {error}
        </Notice>
      )}
      {webhooks === null ? (
        !error && <p className="muted">Loading…</p>
      ) : webhooks.length === 0 ? (
        <EmptyState icon={<WebhookIcon size={24} />} title="No webhooks yet">
          Add your receiver&apos;s URL, and Voicedraft tells it when a note is transcribed, a post is written, or whatever else you choose.
        </EmptyState>
      ) : (
        <ul className={styles.hooks} aria-label="Webhooks">
          {webhooks.map((w) => (
            <WebhookCard
              key={w.id}
              webhook={w}
              onManage={() => setOpen({ kind: "settings", id: w.id })}
              onDeliveries={() => setOpen({ kind: "deliveries", id: w.id })}
              onEnable={() => void enable(w)}
            />
          ))}
        </ul>
      )}
      <Sheet open={open !== null} onClose={() => setOpen(null)} title={title}>
        {open?.kind === "add" && (
          <WebhookForm
            submitLabel="Add webhook"
            onSubmit={async (input) => {
              const { secret } = await createWebhook(input);
              await load();
              setOpen({ kind: "secret", secret, rotated: false });
            }}
          />
        )}
        {open?.kind === "secret" && <NewSecret secret={open.secret} rotated={open.rotated} onDone={() => setOpen(null)} />}
        {open?.kind === "settings" && current && (
          <WebhookSettings
            key={current.id}
            webhook={current}
            onChanged={() => void load()}
            onRotated={(secret) => setOpen({ kind: "secret", secret, rotated: true })}
            onClose={() => setOpen(null)}
          />
        )}
        {open?.kind === "deliveries" && current && <DeliveriesLog webhook={current} />}
      </Sheet>
    </div>
  );
}
