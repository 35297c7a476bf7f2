import https from "node:https";
import pkg from "@/package.json" with { type: "json" };
import { pinnedLookup, resolveAllowedAddresses, WebhookAddressError } from "@/lib/webhooks/url-guard.ts";

// The OAuth server's only way out (oidc-provider's `fetch`): a client whose client_id is an https
// URL (a Client ID Metadata Document, as MCP's 2025-11-25 and 2026-07-28 authorization ask
// servers to accept) makes this server fetch that URL, one a stranger chose. So it goes out as a
// webhook does (lib/webhooks/url-guard.ts): to public addresses only, whatever
// WEBHOOKS_ALLOW_PRIVATE says (a metadata document is never on the person's own network),
// connecting to the addresses checked; https only; no redirect followed (a 3xx is answered to the
// library as it is, which refuses it); at most OUTBOUND_MAX_BYTES, within OUTBOUND_TIMEOUT_MS.

/** A Client ID Metadata Document's size limit (the library's own default, said here once). */
export const CLIENT_METADATA_MAX_BYTES = 5 * 1024;
/** Any document the library fetches (with room for a JWKS). */
export const OUTBOUND_MAX_BYTES = 64 * 1024;
/** One deadline for resolving, connecting and the whole answer. */
export const OUTBOUND_TIMEOUT_MS = 3_000;

/** What a GET answered: its status, headers and body (the test's stand-in for the network answers the same). */
export type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: AsyncIterable<Uint8Array>; abort: () => void };
/** GETs the URL, connecting only to the given (checked) addresses. */
export type Getter = (url: URL, addresses: string[], signal: AbortSignal) => Promise<Answer>;

const httpsGet: Getter = (url, addresses, signal) =>
  new Promise((resolve, reject) => {
    const req = https.request(url, { method: "GET", lookup: pinnedLookup(addresses), signal, headers: { accept: "application/json", "user-agent": `Voicedraft-OAuth/${pkg.version}` } });
    req.on("response", (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res, abort: () => res.destroy() }));
    req.on("error", reject);
    req.end();
  });

let getter: Getter = httpsGet;

/** Tests answer for the network (the guard still runs first); returns a function that restores it. */
export function useGetter(next: Getter): () => void {
  getter = next;
  return () => void (getter = httpsGet);
}

export class OutboundRefused extends Error {}

/** The body, at most `max` bytes (OutboundRefused beyond). */
async function readAtMost(answer: Answer, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body) {
    size += chunk.length;
    if (size > max) {
      answer.abort();
      throw new OutboundRefused(`The document is larger than ${max} bytes.`);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** oidc-provider's `fetch`: a GET of a URL someone else chose, guarded as above. */
export async function guardedFetch(input: string | URL, options: { signal?: AbortSignal } = {}): Promise<Response> {
  const url = new URL(input);
  if (url.protocol !== "https:") throw new OutboundRefused("Only https URLs are fetched.");
  // A timer of its own (AbortSignal.timeout's is unref'd, and would not hold a test's process open).
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new OutboundRefused("The document did not arrive in time.")), OUTBOUND_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  const work = (async () => {
    let addresses: string[];
    try {
      addresses = await resolveAllowedAddresses(url.href, false);
    } catch (err) {
      throw err instanceof WebhookAddressError ? new OutboundRefused(err.message) : err;
    }
    const answer = await getter(url, addresses, signal);
    const body = await readAtMost(answer, OUTBOUND_MAX_BYTES);
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) for (const one of [value ?? []].flat()) headers.append(name, one);
    return new Response(answer.status === 204 || answer.status === 304 ? null : new Uint8Array(body), { status: answer.status, headers });
  })();
  // The deadline holds even for a getter that does not heed the signal (a stalled answer).
  const timedOut = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(new OutboundRefused("The document did not arrive in time."));
    signal.addEventListener("abort", () => reject(new OutboundRefused("The document did not arrive in time.")), { once: true });
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
