import { env } from "@/lib/env.ts";
import { db, databaseKind } from "@/lib/db/client.ts";
import { pendingMigrations } from "@/lib/db/migrate.ts";
import type { PublicAddress } from "@/lib/http/public-origin.ts";
import { errorFields, log } from "@/lib/log.ts";
import { recognizerQuality, type RecognizerQuality } from "@/lib/transcription/recognizers/recognizer-quality.ts";
import { writingHealth, type WritingHealth } from "@/lib/writer/local/status.ts";

export type Health = {
  status: "ok" | "degraded";
  database: { kind: string; reachable: boolean; latency_ms: number | null; pending_migrations: string[] | null };
  transcription: RecognizerQuality;
  writing: WritingHealth;
  public_address: PublicAddress;
};

class DatabaseSlow extends Error {}

/** Rejects when `work` takes longer than the health check may wait (requests are waiting too). */
function withinTimeout<T>(work: Promise<T>): Promise<T> {
  const seconds = env().HEALTH_DB_TIMEOUT_SECONDS;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseSlow(`the database did not answer within ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The health report; `address` is the public address the request was sent to (publicAddress). */
export async function checkHealth(address: PublicAddress): Promise<Health> {
  const started = performance.now();
  try {
    const prisma = await withinTimeout(db());
    await withinTimeout(prisma.$queryRaw`SELECT 1`);
    const latency = Math.round((performance.now() - started) * 10) / 10;
    const pending = await withinTimeout(
      pendingMigrations((sql) => prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql)),
    );
    return {
      status: pending.length ? "degraded" : "ok",
      database: { kind: await databaseKind(), reachable: true, latency_ms: latency, pending_migrations: pending },
      transcription: recognizerQuality(),
      writing: writingHealth(),
      public_address: address,
    };
  } catch (err) {
    log.warn("health check failed", errorFields(err));
    // Too slow counts as unreachable: requests that need the database are stuck behind it too.
    const kind = err instanceof DatabaseSlow ? await databaseKind().catch(() => "unknown") : "unknown";
    return {
      status: "degraded",
      database: { kind, reachable: false, latency_ms: null, pending_migrations: null },
      transcription: recognizerQuality(),
      writing: writingHealth(),
      public_address: address,
    };
  }
}
