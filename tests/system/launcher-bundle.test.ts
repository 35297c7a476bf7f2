import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "@/tests/support/processes.ts";

const { buildLauncher } = (await import(pathToFileURL(path.join(ROOT, "scripts", "build-launcher.mjs")).href)) as { buildLauncher(): Promise<string> };

// The launcher hosts the embedded database and starts Next. The database client, the queue and
// the job workers live in the Next server (instrumentation.ts), which loads them for its requests
// anyway: loaded in the launcher as well they cost ~45 MB at idle (npm run bench:memory).
test("the launcher's bundle leaves the database client, the queue and the jobs to the Next server", async () => {
  const bundle = await readFile(await buildLauncher(), "utf8");
  const imports = new Set([...bundle.matchAll(/from "([^"]+)"/g)].map((m) => m[1]));
  assert.ok(imports.has("@electric-sql/pglite"), "it hosts the embedded database");
  for (const heavy of ["pg-boss", "@prisma/adapter-pg", "@prisma/client"]) assert.ok(!imports.has(heavy), `${heavy} is not imported`);
  assert.doesNotMatch(bundle, /class PrismaClient|new PrismaClient|getPrismaClient/, "no Prisma client compiled in");
  assert.doesNotMatch(bundle, /startJobWorkers/, "no job workers");
});
