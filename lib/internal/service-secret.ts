import { timingSafeEqual } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { env } from "@/lib/env.ts";
import { readOrCreateSecretFile } from "@/lib/secret-file.ts";

// Internal endpoints (job status and recovery, the generation callback) are called by the
// service's own processes. SERVICE_SECRET names the shared secret; when it is unset, the first
// process generates one into DATA_DIR, which every process on the same data directory reads.
// Deployments with several machines set SERVICE_SECRET explicitly.

const SECRET_FILE = "service-secret";
let cached: Promise<string> | undefined;

async function readOrCreate(dataDir: string): Promise<string> {
  await mkdir(dataDir, { recursive: true });
  return readOrCreateSecretFile(path.join(dataDir, SECRET_FILE), "delete it or set SERVICE_SECRET");
}

/** The service secret shared by this deployment's processes. */
export function serviceSecret(): Promise<string> {
  const { SERVICE_SECRET, dataDir } = env();
  if (SERVICE_SECRET) return Promise.resolve(SERVICE_SECRET);
  cached ??= readOrCreate(dataDir).catch((err) => {
    cached = undefined;
    throw err;
  });
  return cached;
}

/** Constant-time comparison of a presented secret with the service secret. */
export async function isServiceSecret(presented: string | null | undefined): Promise<boolean> {
  if (!presented) return false;
  const expected = Buffer.from(await serviceSecret());
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
