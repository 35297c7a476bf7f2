import { env } from "@/lib/env.ts";

/** The Next server's own start (instrumentation.ts): the background jobs. */
export async function startNodeServer(): Promise<void> {
  // The app's server works the background jobs too (unless JOBS_IN_APP=false): it already holds the
  // database client and the queue, so a second process need not load them again (bench:memory).
  if (env().JOBS_IN_APP) {
    const { startServerJobWorkers } = await import("@/lib/background-work.ts");
    await startServerJobWorkers();
  }
}
