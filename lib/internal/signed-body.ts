import { createHmac, timingSafeEqual } from "node:crypto";
import { db } from "@/lib/db/client.ts";
import { serviceSecret } from "@/lib/internal/service-secret.ts";

// Signed internal callbacks (an external generator's result). A signature is HMAC-SHA256 with the
// service secret over `${timestamp}.${raw body}`, sent as `X-Voicedraft-Signature: v1=<hex>` with
// the Unix time in `X-Voicedraft-Timestamp`. Outside the replay window, or seen before: 401.

export const SIGNATURE_HEADER = "x-voicedraft-signature";
export const TIMESTAMP_HEADER = "x-voicedraft-timestamp";
export const REPLAY_WINDOW_SECONDS = 300;

const hmac = (secret: string, timestamp: string, body: string) =>
  createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");

/** The headers that sign `body` (what a caller of a signed endpoint sends). */
export async function signBody(body: string, now = Date.now()): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(now / 1000));
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: `v1=${hmac(await serviceSecret(), timestamp, body)}` };
}

/** Checks the signature and the window, and records the signature so it works only once; returns why it is refused. */
export async function signatureRefusal(body: string, headers: Headers): Promise<string | undefined> {
  const timestamp = headers.get(TIMESTAMP_HEADER);
  const signature = /^v1=([0-9a-f]{64})$/.exec(headers.get(SIGNATURE_HEADER) ?? "")?.[1];
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !signature) return "A signed request is required.";
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > REPLAY_WINDOW_SECONDS) {
    return "The request's timestamp is outside the replay window.";
  }
  const expected = Buffer.from(hmac(await serviceSecret(), timestamp, body), "hex");
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) return "The signature is wrong.";
  const prisma = await db();
  const cutoff = new Date(Date.now() - 2 * REPLAY_WINDOW_SECONDS * 1000);
  await prisma.generationCallbackSignature.deleteMany({ where: { receivedAt: { lt: cutoff } } });
  const { count } = await prisma.generationCallbackSignature.createMany({ data: [{ signature }], skipDuplicates: true });
  return count === 0 ? "This signed request was already received." : undefined;
}
