import { db, databaseKind } from "@/lib/db/client.ts";
import { pendingMigrations } from "@/lib/db/migrate.ts";
import { errorFields, log } from "@/lib/log.ts";

export type Health = {
  status: "ok" | "degraded";
  database: { kind: string; reachable: boolean; latency_ms: number | null; pending_migrations: string[] | null };
};

export async function checkHealth(): Promise<Health> {
  const started = performance.now();
  try {
    const prisma = await db();
    await prisma.$queryRaw`SELECT 1`;
    const latency = Math.round((performance.now() - started) * 10) / 10;
    const pending = await pendingMigrations((sql) => prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql));
    return {
      status: pending.length ? "degraded" : "ok",
      database: { kind: await databaseKind(), reachable: true, latency_ms: latency, pending_migrations: pending },
    };
  } catch (err) {
    log.warn("health check failed", errorFields(err));
    return { status: "degraded", database: { kind: "unknown", reachable: false, latency_ms: null, pending_migrations: null } };
  }
}
