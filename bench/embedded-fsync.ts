// npm run bench:fsync [-- --inserts 500] – what durability costs the embedded database: single-row
// committed inserts per second on disk with PGlite's default (fsync off, and Emscripten dropping
// every fsync anyway) against the durable setup npm start uses (lib/db/durable-node-fs.ts).
// It measures the disk under DATA_DIR's parent (or --dir): run it where the data will live.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { DurableNodeFS, durableStartParams } from "@/lib/db/durable-node-fs.ts";

const { values } = parseArgs({ options: { inserts: { type: "string", default: "500" }, dir: { type: "string" } } });
const inserts = Number(values.inserts);
const parent = values.dir ?? tmpdir();

async function insertsPerSecond(durable: boolean): Promise<number> {
  const dir = await mkdtemp(path.join(parent, "vd-fsync-"));
  const db = durable
    ? await PGlite.create({ fs: new DurableNodeFS(dir), startParams: durableStartParams() })
    : await PGlite.create({ dataDir: dir });
  try {
    await db.exec("CREATE TABLE bench (id serial PRIMARY KEY, body text)");
    const started = performance.now();
    for (let i = 0; i < inserts; i++) await db.query("INSERT INTO bench (body) VALUES ($1)", [`row ${i}`]);
    return inserts / ((performance.now() - started) / 1000);
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const fast = await insertsPerSecond(false);
const durable = await insertsPerSecond(true);
console.log(`disk: ${parent}; ${inserts} single-row commits each`);
console.log(`fsync off (PGlite default): ${fast.toFixed(0)} inserts/s`);
console.log(`fsync on (npm start):       ${durable.toFixed(0)} inserts/s`);
console.log(`cost of durability:         ${((1 - durable / fast) * 100).toFixed(0)} % fewer commits per second`);
