import { db } from "@/lib/db/client.ts";
import { env } from "@/lib/env.ts";

/** The Next server's own start (instrumentation.ts): the database client, and the background jobs. */
export async function startNodeServer(): Promise<void> {
  // The client's first query compiles Prisma's query compiler (wasm, about a second of a core):
  // begun now, beside the job workers' start (which mostly waits on the database), instead of after
  // it, in the first request. bench:restart measures it.
  const client = db().then((prisma) => prisma.$queryRaw`SELECT 1`).catch(() => undefined);
  // The app's server works the background jobs too (unless JOBS_IN_APP=false): it already holds the
  // database client and the queue, so a second process need not load them again (bench:memory).
  if (env().JOBS_IN_APP) {
    const { startServerJobWorkers } = await import("@/lib/background-work.ts");
    await startServerJobWorkers();
  }
  await client;
}
