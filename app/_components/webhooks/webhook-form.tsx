"use client";

import { useState, type FormEvent } from "react";
import { ApiRequestError } from "@/app/_lib/api.ts";
import type { NewWebhook, Webhook, WebhookEvent } from "@/app/_lib/webhooks.ts";
import { Button, Field, Notice } from "@/app/_ui/index.ts";
import { ALL_EVENTS, EVENT_NAMES } from "./event-names.ts";
import styles from "./webhooks.module.css";

// The URL, the events and a description, to add an endpoint or change one. What the server
// refuses is said under the field it is about (a private address under the URL), in plain words.

type FieldErrors = { url?: string; events?: string; description?: string; form?: string };

/** The server's refusal, placed by field: its details name the field; the words are the person's. */
export function fieldErrors(err: unknown): FieldErrors {
  if (!(err instanceof ApiRequestError)) return { form: "Not saved: something went wrong. Try again." };
  if (err.status === 0) return { form: "Saving needs a connection." };
  if (err.code === "webhook_url_not_allowed") {
    const why = err.details.find((d) => d.path === "url")?.message ?? err.message;
    return { url: `Voicedraft does not send to this address: ${why.replace(/\.$/, "")}. Use your receiver's public URL.` };
  }
  const errors: FieldErrors = {};
  for (const { path, message } of err.details) {
    const field = path.split(".")[0];
    if (field === "url") errors.url = `The URL ${message}.`;
    else if (field === "events") errors.events = `Choose at least one event.`;
    else if (field === "description") errors.description = `The description ${message}.`;
  }
  return Object.keys(errors).length ? errors : { form: err.message };
}

export function WebhookForm({ webhook, submitLabel, onSubmit }: { webhook?: Webhook; submitLabel: string; onSubmit: (input: NewWebhook) => Promise<void> }) {
  const [events, setEvents] = useState<Set<WebhookEvent>>(new Set(webhook?.events ?? ["transcription.completed"]));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);

  function toggle(event: WebhookEvent, on: boolean) {
    setEvents((all) => {
      const next = new Set(all);
      if (on) next.add(event);
      else next.delete(event);
      return next;
    });
    setErrors(({ events: _, ...rest }) => rest);
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (events.size === 0) return setErrors({ events: "Choose at least one event." });
    const form = new FormData(e.currentTarget);
    setSaving(true);
    setErrors({});
    try {
      // In the order of the list, so the card reads the same however they were ticked.
      await onSubmit({ url: String(form.get("url") ?? "").trim(), events: ALL_EVENTS.filter((ev) => events.has(ev)), description: String(form.get("description") ?? "") });
    } catch (err) {
      setErrors(fieldErrors(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="stack" onSubmit={submit} noValidate={false} aria-label={submitLabel}>
      <Field
        id="webhook-url"
        name="url"
        // The sheet opens on the first field, not its ✕ (issue 69; see Sheet).
        data-autofocus
        label="URL"
        type="url"
        inputMode="url"
        required
        maxLength={2000}
        defaultValue={webhook?.url}
        placeholder="https://hooks.example.com/voicedraft"
        autoComplete="off"
        spellCheck={false}
        hint={errors.url ? undefined : "Where Voicedraft sends each event: the web address your receiver gives you, e.g. an n8n, Zapier or Home Assistant webhook."}
        error={errors.url}
        onChange={() => errors.url && setErrors(({ url: _, ...rest }) => rest)}
      />
      <fieldset className={styles.checklist} aria-describedby={errors.events ? "webhook-events-error" : undefined}>
        <legend>Send when</legend>
        {ALL_EVENTS.map((event) => (
          <label key={event} className={styles.eventCheck}>
            <input type="checkbox" checked={events.has(event)} onChange={(e) => toggle(event, e.target.checked)} data-testid="webhook-event" value={event} />
            <span className={styles.eventWords}>
              <span>{EVENT_NAMES[event]}</span>
              <span className={styles.eventType}>{event}</span>
            </span>
          </label>
        ))}
        {errors.events && (
          <p id="webhook-events-error" className={styles.fieldsetError}>
            {errors.events}
          </p>
        )}
      </fieldset>
      <Field
        id="webhook-description"
        name="description"
        label="Description (optional)"
        maxLength={200}
        defaultValue={webhook?.description}
        placeholder="e.g. n8n: new transcripts"
        autoComplete="off"
        error={errors.description}
      />
      {errors.form && (
        <Notice tone="danger" role="alert">
          {errors.form}
        </Notice>
      )}
      <Button type="submit" size="large" block disabled={saving}>
        {saving ? "Saving…" : submitLabel}
      </Button>
    </form>
  );
}
