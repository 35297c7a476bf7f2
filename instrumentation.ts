// Runs once in each Next server process, before it serves requests.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installNodeServerGuards } = await import("@/lib/http/node-server-guards.ts");
  installNodeServerGuards();
}
