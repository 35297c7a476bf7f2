"use client";

import { Inbox, RefreshCw, RotateCw } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { listWebhookDeliveries, redeliverWebhook, type Webhook, type WebhookAttempt, type WebhookDelivery } from "@/app/_lib/webhooks.ts";
import { Badge, Button, EmptyState, IconButton, LocalTime, Notice, useToast } from "@/app/_ui/index.ts";
import { eventName } from "./event-names.ts";
import styles from "./webhooks.module.css";

// A webhook's deliveries, newest first, each with every attempt (time, status code, duration,
// error); one can be sent again. While one is still pending the log reads itself again, so a
// test or a redelivery shows its outcome without a tap.

const POLL_MS = 2000;

const STATUS: Record<WebhookDelivery["status"], { label: string; tone: "success" | "danger" | "info" }> = {
  delivered: { label: "Delivered", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  pending: { label: "Sending", tone: "info" },
};

function Attempt({ attempt }: { attempt: WebhookAttempt }) {
  const ok = attempt.error === null;
  return (
    <li className={styles.attempt} data-testid="webhook-attempt">
      <span className={ok ? styles.attemptOk : styles.attemptFailed}>{attempt.status_code ?? "No answer"}</span>
      <span>{attempt.duration_ms} ms</span>
      <LocalTime iso={attempt.attempted_at} />
      {attempt.error && <span className={styles.attemptError}>{attempt.error}</span>}
    </li>
  );
}

function DeliveryRow({ delivery, onRedeliver }: { delivery: WebhookDelivery; onRedeliver: () => void }) {
  const status = STATUS[delivery.status];
  const retry = delivery.status === "pending" && delivery.attempts.length > 0 && delivery.next_attempt_at;
  return (
    <li className={styles.delivery} data-testid="webhook-delivery">
      <div className={styles.deliveryHead}>
        <span className={styles.deliveryTitle}>
          <span className={styles.deliveryType}>{eventName(delivery.type)}</span>
          <span className={styles.when}>
            <LocalTime iso={delivery.created_at} />
            {retry && (
              <>
                {" · next try "}
                <LocalTime iso={retry} />
              </>
            )}
          </span>
        </span>
        <Badge tone={status.tone}>{status.label}</Badge>
        <IconButton label={`Send this ${eventName(delivery.type).toLowerCase()} again`} icon={<RotateCw size={18} aria-hidden="true" />} onClick={onRedeliver} disabled={delivery.status === "pending"} />
      </div>
      {delivery.attempts.length > 0 && (
        <ol className={styles.attempts} aria-label="Attempts">
          {delivery.attempts.map((a) => (
            <Attempt key={a.attempted_at} attempt={a} />
          ))}
        </ol>
      )}
    </li>
  );
}

export function DeliveriesLog({ webhook }: { webhook: Webhook }) {
  const [deliveries, setDeliveries] = useState<WebhookDelivery[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Sent again by hand: watched until that attempt ends (a retry waiting for its time is not).
  const [resent, setResent] = useState<Set<string>>(new Set());
  const toast = useToast();

  // The first page, again: what is newest and what changed (older pages stay as loaded).
  const load = useCallback(async () => {
    try {
      const page = await listWebhookDeliveries(webhook.id);
      setDeliveries((shown) => {
        const fresh = new Set(page.deliveries.map((d) => d.id));
        return [...page.deliveries, ...(shown ?? []).slice(page.deliveries.length).filter((d) => !fresh.has(d.id))];
      });
      setNext((current) => current ?? page.next_cursor);
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    }
  }, [webhook.id]);
  useEffect(() => {
    // Loading on mount is the point of this effect.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
  }, [load]);

  const sending = deliveries?.some((d) => d.status === "pending" && (d.attempts.length === 0 || resent.has(d.id))) ?? false;
  useEffect(() => {
    if (!sending) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [sending, load]);

  async function more() {
    if (!next) return;
    try {
      const page = await listWebhookDeliveries(webhook.id, next);
      setDeliveries((shown) => [...(shown ?? []), ...page.deliveries]);
      setNext(page.next_cursor);
    } catch (err) {
      toast((err as Error).message);
    }
  }

  async function redeliver(delivery: WebhookDelivery) {
    try {
      const queued = await redeliverWebhook(webhook.id, delivery.id);
      setResent((all) => new Set(all).add(queued.id));
      setDeliveries((all) => all?.map((d) => (d.id === queued.id ? queued : d)) ?? null);
      toast(`Sending the ${eventName(delivery.type).toLowerCase()} again.`);
      void load();
    } catch (err) {
      toast(`Not sent again: ${(err as Error).message}`);
    }
  }

  return (
    <div className="stack" data-testid="webhook-deliveries">
      <div className={styles.logHead}>
        <p className="muted">The newest first, each with every try.</p>
        <IconButton label="Refresh" icon={<RefreshCw size={18} aria-hidden="true" />} onClick={() => void load()} />
      </div>
      {error && (
        <Notice tone="danger" role="alert">
          {error}
        </Notice>
      )}
      {deliveries === null ? (
        !error && <p className="muted">Loading…</p>
      ) : deliveries.length === 0 ? (
        <EmptyState icon={<Inbox size={24} />} title="Nothing sent yet">
          Events you chose show up here as they are sent. Send a test to see one now.
        </EmptyState>
      ) : (
        <ul className={styles.deliveries} aria-label="Deliveries">
          {deliveries.map((d) => (
            <DeliveryRow key={d.id} delivery={d} onRedeliver={() => void redeliver(d)} />
          ))}
        </ul>
      )}
      {next && (
        <Button variant="secondary" block onClick={() => void more()}>
          Show older
        </Button>
      )}
    </div>
  );
}
