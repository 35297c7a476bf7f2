// npm run worker – a dedicated background-job process (transcript optimization, …). Any number
// of them can share the queue in DATABASE_URL's PostgreSQL with the app processes (set
// JOBS_IN_APP=false on those to leave the jobs to the workers). On the embedded database it joins
// the running `npm start` through its lock file, or hosts the database itself when none runs.
import { closeDb, databaseKind } from "@/lib/db/client.ts";
import { closeJobQueue } from "@/lib/jobs/queue.ts";
import { startJobWorkers } from "@/lib/jobs/workers.ts";
import { JOBS, SWEEPS } from "@/lib/background-work.ts";
import { errorFields, log } from "@/lib/log.ts";

async function main(): Promise<void> {
  const workers = await startJobWorkers(JOBS, SWEEPS);
  log.info("worker ready", { pid: process.pid, database: await databaseKind() });
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  log.info("worker stopping");
  await workers.stop();
  await closeJobQueue();
  await closeDb();
}

try {
  await main();
} catch (err) {
  log.error("worker failed", errorFields(err));
  process.exitCode = 1;
}
