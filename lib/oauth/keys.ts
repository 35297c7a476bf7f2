import { generateKeyPairSync } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { JWK } from "oidc-provider";
import { env } from "@/lib/env.ts";
import { readOrCreateSecretFile } from "@/lib/secret-file.ts";

// The OAuth server's signing key (ID tokens, signed responses) and the keys of its cookies, kept
// as the service secret is: created once into DATA_DIR (mode 0600), read by every later process
// on the same data directory, so tokens and half-finished sign-ins survive a restart. Access
// tokens are opaque (looked up in the database), so the signing key never guards /mcp itself.

export type OAuthKeys = { jwks: { keys: JWK[] }; cookieKeys: string[] };
let cached: Promise<OAuthKeys> | undefined;

const makeSigningKey = () => JSON.stringify({ ...generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }), use: "sig", alg: "RS256" });

async function readOrCreate(dataDir: string): Promise<OAuthKeys> {
  await mkdir(dataDir, { recursive: true });
  const [signing, cookie] = await Promise.all([
    readOrCreateSecretFile(path.join(dataDir, "oauth-signing-key.json"), "delete it and start again (connected apps will need to connect again)", makeSigningKey),
    readOrCreateSecretFile(path.join(dataDir, "oauth-cookie-key"), "delete it and start again"),
  ]);
  return { jwks: { keys: [JSON.parse(signing) as JWK] }, cookieKeys: [cookie] };
}

/** This deployment's OAuth keys. */
export function oauthKeys(): Promise<OAuthKeys> {
  cached ??= readOrCreate(env().dataDir).catch((err) => {
    cached = undefined;
    throw err;
  });
  return cached;
}
