// Creates a new embedded database and exits: `node --import tsx lib/db/create-embedded.ts <dir>`.
// Run by hostEmbeddedDatabase (lib/db/embedded.ts) in a process of its own, so the memory that
// initdb takes is given back when this process ends instead of staying in the long-lived host.
// The caller holds the data directory's lock.
import { mkdirSync } from "node:fs";
import { openEmbeddedDatabase } from "@/lib/db/embedded.ts";

const pgDir = process.argv[2];
if (!pgDir) {
  console.error("usage: create-embedded.ts <pglite data directory>");
  process.exit(2);
}
// Its stdin is a pipe from the host: it ends when the host dies (SIGKILL too), and so does this
// process, so it never goes on writing a data directory that a new host may be creating again.
process.stdin.on("end", () => process.exit(1)).resume();
mkdirSync(pgDir, { recursive: true, mode: 0o700 });
const db = await openEmbeddedDatabase(pgDir);
await db.close();
process.exit(0);
