import { randomBytes } from "node:crypto";
import type { WebhookEndpoint } from "@/lib/db/generated/client.ts";

// An endpoint's secrets. The secret leaves the server twice only: in the answers of create and
// rotate. After a rotation the previous secret signs beside the new one until it expires, so a
// receiver can switch without a gap.

type Secrets = Pick<WebhookEndpoint, "secret" | "previousSecret" | "previousSecretExpiresAt">;

/** A Standard Webhooks secret: whsec_ and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** When the previous secret stops signing, while it still signs; null when it does not (any more). */
export function previousSecretExpiry(endpoint: Secrets, now = new Date()): Date | null {
  const expiry = endpoint.previousSecretExpiresAt;
  return endpoint.previousSecret && expiry && expiry > now ? expiry : null;
}

/** The secrets that sign now: the current one, and the previous one during a rotation's overlap. */
export function signingSecrets(endpoint: Secrets, now = new Date()): string[] {
  return previousSecretExpiry(endpoint, now) ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}
