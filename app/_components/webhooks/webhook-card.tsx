"use client";

import { CircleAlert, CircleCheck, History, Send, Settings2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { listWebhookDeliveries, sendTestEvent, type Webhook, type WebhookDelivery } from "@/app/_lib/webhooks.ts";
import { Badge, Button, IconButton, LocalTime, Notice, Spinner } from "@/app/_ui/index.ts";
import { EVENT_NAMES, shortUrl, urlPieces } from "./event-names.ts";
import styles from "./webhooks.module.css";

// One endpoint: what it is called and where it sends, which events, whether it is on, and why
// Voicedraft turned it off when it did. Send test shows the outcome here, when the attempt ends.

const TEST_POLL_MS = 700;
// The receiver has 10 s; past that the test is still queued (a busy worker), and the log will show it.
const TEST_WAIT_MS = 15_000;

type Test = { state: "sending" } | { state: "done"; delivery: WebhookDelivery } | { state: "waiting" } | { state: "error"; message: string };

/** "Every delivery failed …" → "every delivery failed …", to follow "because". */
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

function TestResult({ test }: { test: Test }) {
  if (test.state === "sending")
    return (
      <Notice tone="info" icon={<Spinner />} role="status">
        Sending a test event…
      </Notice>
    );
  if (test.state === "error") return <Notice tone="danger" role="alert">{`Test not sent: ${test.message}`}</Notice>;
  if (test.state === "waiting")
    return (
      <Notice tone="info" role="status">
        The test is queued: it shows in Deliveries once it is sent.
      </Notice>
    );
  const attempt = test.delivery.attempts.at(-1);
  if (test.delivery.status === "delivered")
    return (
      <Notice tone="success" icon={<CircleCheck size={18} aria-hidden="true" />} role="status" data-testid="test-result">
        Test delivered: your endpoint answered {attempt?.status_code} in {attempt?.duration_ms} ms.
      </Notice>
    );
  return (
    <Notice tone="danger" icon={<CircleAlert size={18} aria-hidden="true" />} role="alert" data-testid="test-result">
      Test not delivered: {attempt?.error ?? "no answer"}
    </Notice>
  );
}

export function WebhookCard(props: { webhook: Webhook; onManage: () => void; onDeliveries: () => void; onEnable: () => void }) {
  const { webhook, onManage, onDeliveries, onEnable } = props;
  const [test, setTest] = useState<Test | null>(null);
  const alive = useRef(true);
  useEffect(() => () => void (alive.current = false), []);

  async function sendTest() {
    setTest({ state: "sending" });
    try {
      const queued = await sendTestEvent(webhook.id);
      const until = Date.now() + TEST_WAIT_MS;
      while (alive.current && Date.now() < until) {
        await new Promise((r) => setTimeout(r, TEST_POLL_MS));
        const { deliveries } = await listWebhookDeliveries(webhook.id, null, 5);
        const found = deliveries.find((d) => d.id === queued.id);
        if (found && found.status !== "pending") return setTest({ state: "done", delivery: found });
      }
      setTest({ state: "waiting" });
    } catch (err) {
      setTest({ state: "error", message: (err as Error).message });
    }
  }

  const disabledBecause = !webhook.enabled && webhook.disabled_reason;
  const name = webhook.description || shortUrl(webhook.url);
  // Each piece stays whole on a line: a URL breaks after a "/" or "." (within a piece only when it is longer than the line).
  const pieces = (url: string) => urlPieces(url).map((piece, i) => (
    <span key={i} className={styles.urlPiece}>
      {piece}
    </span>
  ));
  return (
    <li className={`card ${styles.hook}`} data-testid="webhook">
      <div className={styles.head}>
        <span className={styles.title}>
          {/* Its description, else its address, once (issue 69: the address showed twice). */}
          <span className={styles.name} data-testid="webhook-name">
            {webhook.description || pieces(shortUrl(webhook.url))}
          </span>
          {webhook.description && (
            <span className={styles.url} data-testid="webhook-url">
              {pieces(webhook.url)}
            </span>
          )}
        </span>
        {webhook.enabled ? <Badge tone="success">On</Badge> : disabledBecause ? <Badge tone="danger">Disabled</Badge> : <Badge>Paused</Badge>}
        <IconButton label={`Settings of ${name}`} icon={<Settings2 size={20} aria-hidden="true" />} onClick={onManage} data-testid="webhook-settings" className={styles.settings} />
      </div>
      <p className={styles.events}>
        Sends when: {webhook.events.map((e) => EVENT_NAMES[e].toLowerCase()).join("; ")}.
      </p>
      {disabledBecause ? (
        <Notice tone="danger" icon={<CircleAlert size={18} aria-hidden="true" />} data-testid="webhook-disabled">
          <strong>
            Disabled on {webhook.disabled_at ? <LocalTime iso={webhook.disabled_at} /> : "an earlier day"}
          </strong>{" "}
          because {lowerFirst(webhook.disabled_reason!)}
        </Notice>
      ) : (
        !webhook.enabled && <p className="muted">Paused: nothing is sent until you turn it on. A test is still sent.</p>
      )}
      {!webhook.enabled && (
        <Button block onClick={onEnable}>
          Turn on again
        </Button>
      )}
      {test && <TestResult test={test} />}
      <div className={styles.actions}>
        <Button variant="secondary" onClick={() => void sendTest()} disabled={test?.state === "sending"}>
          <Send size={18} aria-hidden="true" /> Send test
        </Button>
        <Button variant="secondary" onClick={onDeliveries}>
          <History size={18} aria-hidden="true" /> Deliveries
        </Button>
      </div>
    </li>
  );
}
