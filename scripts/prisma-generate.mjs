// Runs `prisma generate` offline (npm's postinstall).
//
// The Prisma 7 CLI insists on a native schema-engine binary before any command, and
// downloads one when it is missing. `generate` never runs that engine (it uses the
// bundled WebAssembly schema tooling), so pointing PRISMA_SCHEMA_ENGINE_BINARY at an
// existing file skips the download. Migrations are applied by lib/db/migrate.ts.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);

let cli;
try {
  cli = require.resolve("prisma/build/index.js", { paths: [root] });
} catch {
  console.error("prisma-generate: the prisma package is not installed; run npm install.");
  process.exit(1);
}

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
}

const result = spawnSync(process.execPath, [cli, "generate"], { cwd: root, env, stdio: "inherit" });
if (result.status !== 0) {
  console.error("prisma-generate: `prisma generate` failed; see the output above.");
  process.exit(result.status ?? 1);
}
