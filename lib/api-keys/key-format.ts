import { createHash, randomInt } from "node:crypto";

// "vd_" + 43 base62 characters (≈256 bits). The prefix makes leaked keys easy to recognise and
// scan for; base62 keeps the key one double-click wide. Stored only as SHA-256: the key is
// random and long, so a slow KDF would add nothing but latency to every request.
const PREFIX = "vd_";
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_LENGTH = 43;
const KEY_PATTERN = /^vd_[0-9A-Za-z]{43}$/;
export const DISPLAY_PREFIX_LENGTH = PREFIX.length + 6;

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  let secret = "";
  for (let i = 0; i < SECRET_LENGTH; i++) secret += ALPHABET[randomInt(ALPHABET.length)];
  const key = PREFIX + secret;
  return { key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function isWellFormedApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}
