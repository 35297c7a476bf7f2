import { env } from "@/lib/env.ts";
import { log } from "@/lib/log.ts";
import { installNodeServerGuards } from "@/lib/http/node-server-guards.ts";

/**
 * The Next server's own start (instrumentation.ts): its request guards, the direct way to the API
 * routes (production only: `next dev` builds routes on demand), and the background jobs.
 */
export async function startNodeServer(): Promise<void> {
  const config = env();
  installNodeServerGuards(await directApi(config.DIRECT_API && process.env.NODE_ENV === "production"));
  // The app's server works the background jobs too (unless JOBS_IN_APP=false): it already holds the
  // database client and the queue, so a second process need not load them again (bench:memory).
  if (config.JOBS_IN_APP) {
    const { startServerJobWorkers } = await import("@/lib/background-work.ts");
    await startServerJobWorkers();
  }
}

async function directApi(enabled: boolean) {
  if (!enabled) return undefined;
  const { createDirectApi } = await import("@/lib/http/direct-api.ts");
  const api = await createDirectApi();
  log.info("api routes answered directly", { routes: api.routes });
  return api;
}
