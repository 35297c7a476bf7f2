import http from "node:http";
import https from "node:https";
import { Webhook as Signer } from "standardwebhooks";
import pkg from "@/package.json" with { type: "json" };
import { pinnedLookup, resolveWebhookAddresses, WebhookAddressError } from "@/lib/webhooks/url-guard.ts";

// The one webhook sender: a signed POST of one event to one URL. Signed with the Standard Webhooks
// reference library (never a hand-written HMAC); with several secrets (a rotation's overlap),
// webhook-signature carries one signature each, space-separated, as the standard allows.

export const DELIVERY_TIMEOUT_MS = 10_000;
const EXCERPT_CHARS = 200;
const MAX_READ_BYTES = 16 * 1024;

export type SendOutcome = {
  delivered: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
};

export type OutgoingEvent = { eventId: string; payload: string; secrets: string[]; url: string };

/** The three Standard Webhooks headers of one attempt. */
export function signedHeaders({ eventId, payload, secrets }: Omit<OutgoingEvent, "url">, at = new Date()): Record<string, string> {
  const signature = secrets.map((secret) => new Signer(secret).sign(eventId, at, payload)).join(" ");
  return { "webhook-id": eventId, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature };
}

/** Sends one attempt. Never throws: every failure is an outcome with its error. Redirects are not followed. */
export async function sendWebhook(event: OutgoingEvent): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let addresses: string[];
  try {
    addresses = await resolveWebhookAddresses(event.url);
  } catch (err) {
    const error = err instanceof WebhookAddressError ? `Refused: ${err.message}` : `The URL is invalid: ${(err as Error).message}`;
    return { delivered: false, statusCode: null, durationMs: elapsed(), error, responseExcerpt: null };
  }
  const result = await post(event, addresses);
  return { ...result, durationMs: elapsed() };
}

function post(event: OutgoingEvent, addresses: string[]): Promise<Omit<SendOutcome, "durationMs">> {
  const url = new URL(event.url);
  const client = url.protocol === "https:" ? https : http;
  const body = Buffer.from(event.payload);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const fail = (error: string, statusCode: number | null = null, responseExcerpt: string | null = null) =>
      finish({ delivered: false, statusCode, error, responseExcerpt });
    const req = client.request(url, {
      method: "POST",
      lookup: pinnedLookup(addresses),
      headers: {
        "content-type": "application/json",
        "content-length": String(body.length),
        "user-agent": `Voicedraft-Webhooks/${pkg.version}`,
        ...signedHeaders(event),
      },
    });
    // One deadline for connecting, sending and the whole answer.
    const timer = setTimeout(() => {
      fail(`No answer within ${DELIVERY_TIMEOUT_MS / 1000} s.`);
      req.destroy();
    }, DELIVERY_TIMEOUT_MS);
    req.on("error", (err) => fail(`The request failed: ${err.message}`));
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let read = 0;
      res.on("data", (chunk: Buffer) => {
        if (read < MAX_READ_BYTES) chunks.push(chunk);
        read += chunk.length;
        if (read >= MAX_READ_BYTES) res.destroy(); // only an excerpt is kept
      });
      const done = () => {
        const status = res.statusCode ?? 0;
        const excerpt = Buffer.concat(chunks).toString("utf8").slice(0, EXCERPT_CHARS) || null;
        if (status >= 200 && status < 300) finish({ delivered: true, statusCode: status, error: null, responseExcerpt: excerpt });
        else if (status >= 300 && status < 400) fail(`Answered ${status}: redirects are not followed; use the final URL.`, status, excerpt);
        else fail(`Answered ${status}; only a 2xx status counts as delivered.`, status, excerpt);
      };
      res.on("end", done);
      res.on("close", done);
      res.on("error", done);
    });
    req.end(body);
  });
}
