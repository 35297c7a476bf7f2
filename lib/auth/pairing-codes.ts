import { createHash, randomInt } from "node:crypto";
import { db } from "@/lib/db/client.ts";
import { env } from "@/lib/env.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { isSecureOrigin } from "@/lib/http/public-origin.ts";
import { isLimitHit, rateLimited } from "@/lib/rate-limit/rate-limited.ts";
import { limiter } from "@/lib/rate-limit/store.ts";

// Pairing a phone: a signed-in computer makes a one-time code (Settings → Add a phone, as a QR code
// of `<origin>/pair#<code>`); the phone opens it and is signed in to the same account with a
// session of its own, no password typed. 5 minutes, once, bound to the account that made it; only
// the code's SHA-256 is kept. 8 letters and digits from 31 that cannot be misread (~40 bits), and
// an address may try RATE_LIMIT_PAIRING_PER_HOUR of them an hour: guessing one is hopeless.

export const PAIRING_MINUTES = 5;
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const LENGTH = 8;

/** The code as typed or scanned: case, spaces and dashes do not matter. */
const normalize = (code: string) => code.toUpperCase().replace(/[^0-9A-Z]/g, "");
const hashCode = (code: string) => createHash("sha256").update(normalize(code)).digest("hex");
const shown = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

function assertSecure(origin: string): void {
  if (isSecureOrigin(origin)) return;
  throw new ApiError(
    "secure_address_required",
    "A phone can be paired only at a secure (https) address: at a plain http one it could not record anyway. See /docs/phone for how to give this server one.",
  );
}

async function consume(name: string, key: string, message: string): Promise<void> {
  const points = env().RATE_LIMIT_PAIRING_PER_HOUR;
  if (!points) return;
  try {
    await limiter({ name, points, durationSeconds: 3600 }).consume(key);
  } catch (err) {
    if (isLimitHit(err)) throw rateLimited(message, points, err.msBeforeNext);
    throw err;
  }
}

/** A new pairing code of the user, and the link a phone opens (the code after `#`, never sent to a server by the phone's browser). */
export async function createPairingCode({ userId, origin }: { userId: string; origin: string }): Promise<{ code: string; url: string; expiresAt: Date }> {
  assertSecure(origin);
  await consume("pairing-codes", userId, "Too many phones were added in the last hour.");
  const code = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  const expiresAt = new Date(Date.now() + PAIRING_MINUTES * 60_000);
  const prisma = await db();
  await prisma.pairingCode.create({ data: { codeHash: hashCode(code), userId, expiresAt } });
  return { code: shown(code), url: `${origin}/pair#${shown(code)}`, expiresAt };
}

/**
 * The user a pairing code signs in, using it up; null for a code that is unknown, used or expired.
 * Refused at a plain http address that is not this computer (403 secure_address_required), and
 * beyond RATE_LIMIT_PAIRING_PER_HOUR tries an hour from one address (429).
 */
export async function redeemPairingCode({ code, origin, ip }: { code: string; origin: string; ip: string }): Promise<string | null> {
  assertSecure(origin);
  await consume("pairing-tries", ip, "Too many pairing codes were tried from your network.");
  if (normalize(code).length !== LENGTH) return null;
  const prisma = await db();
  const codeHash = hashCode(code);
  const now = new Date();
  // Used once: only the request that marks it used gets its account.
  const { count } = await prisma.pairingCode.updateMany({ where: { codeHash, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
  if (count !== 1) return null;
  const found = await prisma.pairingCode.findUnique({ where: { codeHash }, select: { userId: true } });
  return found?.userId ?? null;
}
