// Runs once in each Next server process, before it serves requests. The condition is written so
// that the bundler leaves the Node.js server's start out of the edge runtime's build.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") await (await import("@/lib/node-server-start.ts")).startNodeServer();
}
