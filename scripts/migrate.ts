// npm run db:migrate – applies pending migrations to DATABASE_URL, or to the embedded database.
import { env } from "@/lib/env.ts";
import { findEmbeddedHost, hostEmbeddedDatabase } from "@/lib/db/embedded.ts";
import { migrateDatabase, type MigrationReport } from "@/lib/db/migrate.ts";

async function migrate(): Promise<{ target: string; report: MigrationReport }> {
  const { DATABASE_URL, dataDir } = env();
  if (DATABASE_URL) return { target: "PostgreSQL (DATABASE_URL)", report: await migrateDatabase(DATABASE_URL) };
  const running = await findEmbeddedHost(dataDir);
  if (running) return { target: `the embedded database in ${dataDir}`, report: await migrateDatabase(running.url) };
  const host = await hostEmbeddedDatabase(dataDir, "db:migrate");
  try {
    return { target: `the embedded database in ${dataDir}`, report: await migrateDatabase(host.url) };
  } finally {
    await host.stop();
  }
}

try {
  const { target, report } = await migrate();
  if (report.applied.length) {
    console.log(`Applied ${report.applied.length} migration(s) to ${target}:`);
    for (const name of report.applied) console.log(`  ${name}`);
  } else {
    console.log(`${target} is up to date (${report.alreadyApplied} migration(s) applied).`);
  }
} catch (err) {
  console.error(`Migration failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
