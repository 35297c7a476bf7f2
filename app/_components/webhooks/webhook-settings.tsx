"use client";

import { KeyRound, Pause, Play, Trash2 } from "lucide-react";
import { useState } from "react";
import { ConfirmDelete } from "@/app/_components/settings/managed-list.tsx";
import { deleteWebhook, rotateWebhookSecret, updateWebhook, type Webhook } from "@/app/_lib/webhooks.ts";
import { Button, Notice, useToast } from "@/app/_ui/index.ts";
import { shortUrl } from "./event-names.ts";
import { WebhookForm } from "./webhook-form.tsx";

// The sheet of one endpoint: change it, pause or turn it on, a new secret (asked first: the old
// one stops working a day later), or delete it (asked first).

type Step = "edit" | "rotate" | "delete";

export function WebhookSettings(props: { webhook: Webhook; onChanged: () => void; onRotated: (secret: string) => void; onClose: () => void }) {
  const { webhook, onChanged, onRotated, onClose } = props;
  const [step, setStep] = useState<Step>("edit");
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  const name = webhook.description || shortUrl(webhook.url);

  async function act(what: () => Promise<void>) {
    setError(null);
    try {
      await what();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  const setEnabled = (enabled: boolean) =>
    act(async () => {
      await updateWebhook(webhook.id, { enabled });
      toast(enabled ? `“${name}” is on again.` : `“${name}” is paused: nothing is sent until you turn it on.`);
      onChanged();
      onClose();
    });

  if (step === "delete")
    return (
      <ConfirmDelete
        name={name}
        kind="webhook"
        explanation="Nothing more is sent to this URL, including events still waiting for a retry, and its delivery log is deleted with it."
        inUse={null}
        error={error}
        onDelete={() =>
          void act(async () => {
            await deleteWebhook(webhook.id);
            toast(`Deleted the webhook “${name}”.`);
            onChanged();
            onClose();
          })
        }
        onKeep={() => setStep("edit")}
      />
    );

  if (step === "rotate")
    return (
      <div className="stack" data-testid="rotate-secret">
        <p>
          <strong>Make a new secret for “{name}”?</strong>
        </p>
        <p className="muted">
          The new secret is shown once. For 24 hours each event is signed with both the old and the new secret, so your receiver keeps working while you switch it over.
        </p>
        {error && <Notice tone="danger">{error}</Notice>}
        <Button
          block
          onClick={() =>
            void act(async () => {
              const { secret } = await rotateWebhookSecret(webhook.id);
              onChanged();
              onRotated(secret);
            })
          }
        >
          <KeyRound size={18} aria-hidden="true" /> Make a new secret
        </Button>
        <Button variant="ghost" block onClick={() => setStep("edit")}>
          Keep the current one
        </Button>
      </div>
    );

  return (
    <div className="stack">
      <WebhookForm
        webhook={webhook}
        submitLabel="Save"
        onSubmit={async (input) => {
          await updateWebhook(webhook.id, input);
          toast("Webhook saved.");
          onChanged();
          onClose();
        }}
      />
      {error && <Notice tone="danger">{error}</Notice>}
      {webhook.enabled ? (
        <Button variant="secondary" block onClick={() => void setEnabled(false)}>
          <Pause size={18} aria-hidden="true" /> Pause sending
        </Button>
      ) : (
        <Button variant="secondary" block onClick={() => void setEnabled(true)}>
          <Play size={18} aria-hidden="true" /> Turn on again
        </Button>
      )}
      <Button variant="secondary" block onClick={() => setStep("rotate")}>
        <KeyRound size={18} aria-hidden="true" /> New secret…
      </Button>
      <Button variant="danger" block onClick={() => setStep("delete")}>
        <Trash2 size={18} aria-hidden="true" /> Delete…
      </Button>
    </div>
  );
}
