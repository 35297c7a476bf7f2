// Verifying a webhook delivery (Standard Webhooks 1.0) with Web Crypto alone, so it runs in Node,
// Deno, Bun, workers and browsers without a dependency.

/** A delivery whose webhook-timestamp is further than this from now is refused (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

export type WebhookEvent<T = Record<string, unknown>> = { type: string; timestamp: string; data: T };
type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  const value = entry?.[1];
  return Array.isArray(value) ? value[0] : value;
}

function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function bytesToBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

/** Compares without stopping at the first difference, so timing does not tell how much matched. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The delivery's event once its signature is checked. `body` is the request body exactly as
 * received (text or bytes); `headers` the request's headers. Throws WebhookVerificationError on a
 * missing header, a bad signature, or a timestamp more than five minutes from now.
 */
export async function verifyWebhook<T = Record<string, unknown>>(
  body: string | Uint8Array,
  headers: HeaderSource,
  secret: string,
  options: { now?: Date } = {},
): Promise<WebhookEvent<T>> {
  const id = header(headers, "webhook-id");
  const stamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !stamp || !signatures) throw new WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header.");
  if (!/^\d+$/.test(stamp)) throw new WebhookVerificationError("The webhook-timestamp header is not a number.");
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(stamp)) > WEBHOOK_TOLERANCE_SECONDS) {
    throw new WebhookVerificationError("The webhook-timestamp is more than 5 minutes from now.");
  }
  let keyBytes: Uint8Array;
  try {
    keyBytes = base64ToBytes(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret);
  } catch {
    throw new WebhookVerificationError("The secret is not a whsec_ secret (base64 after whsec_).");
  }
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  const key = await crypto.subtle.importKey("raw", keyBytes as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signed = new TextEncoder().encode(`${id}.${stamp}.${text}`);
  const expected = bytesToBase64(new Uint8Array(await crypto.subtle.sign("HMAC", key, signed)));
  const match = signatures.split(" ").some((candidate) => {
    const [version, signature] = candidate.split(",", 2);
    return version === "v1" && signature !== undefined && sameText(signature, expected);
  });
  if (!match) throw new WebhookVerificationError("No signature matches this secret.");
  return JSON.parse(text) as WebhookEvent<T>;
}
