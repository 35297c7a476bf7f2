// Runs once in each Next server process, before it serves requests.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installNodeServerGuards } = await import("@/lib/http/node-server-guards.ts");
  installNodeServerGuards();
  // The app's server works the background jobs too (unless JOBS_IN_APP=false): it already holds the
  // database client and the queue, so a second process need not load them again (bench:memory).
  const { env } = await import("@/lib/env.ts");
  if (env().JOBS_IN_APP) {
    const { startServerJobWorkers } = await import("@/lib/background-work.ts");
    await startServerJobWorkers();
  }
}
