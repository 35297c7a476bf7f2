// Runs once in each Next server process, before it serves requests.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("@/lib/env.ts");
  const { installNodeServerGuards } = await import("@/lib/http/node-server-guards.ts");
  installNodeServerGuards(await directApi(env().DIRECT_API));
  // The app's server works the background jobs too (unless JOBS_IN_APP=false): it already holds the
  // database client and the queue, so a second process need not load them again (bench:memory).
  if (env().JOBS_IN_APP) {
    const { startServerJobWorkers } = await import("@/lib/background-work.ts");
    await startServerJobWorkers();
  }
}

/** The production server's direct way to the API routes (none in `next dev`, which builds routes on demand). */
async function directApi(enabled: boolean) {
  if (!enabled || process.env.NODE_ENV !== "production") return undefined;
  const { createDirectApi } = await import("@/lib/http/direct-api.ts");
  const { log } = await import("@/lib/log.ts");
  const api = await createDirectApi();
  log.info("api routes answered directly", { routes: api.routes });
  return api;
}
