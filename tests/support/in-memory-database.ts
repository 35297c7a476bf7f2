// A throwaway PGlite for tests and benchmarks, served over the wire protocol like the real one.
import { randomBytes } from "node:crypto";
import { readFile, rename, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { embeddedUrl, serve, wireLimits, type EmbeddedHost } from "@/lib/db/embedded.ts";
import type { WireOptions } from "@/lib/db/pglite-wire-server.ts";

/** A throwaway in-memory database served the same way (tests; `options` override the limits). */
export async function startInMemoryDatabase(options: WireOptions = {}): Promise<EmbeddedHost> {
  const db = await PGlite.create({ loadDataDir: await emptyCluster() });
  const secret = randomBytes(32).toString("base64url");
  const { port, server } = await serve(db, { password: secret, ...wireLimits(), ...options });
  return {
    url: embeddedUrl(port, secret),
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

// PGlite.create() with no data runs initdb: 2–8 s of CPU, paid by every API test file (38 of
// them, twice over with the SDK and bench databases). A copy of the new, empty cluster opens in
// under a second, so it is made once per PGlite version and machine, in the temp directory, and
// every database after the first starts from it. It holds nothing but what initdb writes.
const PGLITE_VERSION: string = JSON.parse(readFileSync(path.join(import.meta.dirname, "../../node_modules/@electric-sql/pglite/package.json"), "utf8")).version;
const TEMPLATE = path.join(tmpdir(), `voicedraft-pglite-${PGLITE_VERSION}-empty-cluster.tar`);
let template: Promise<Blob> | undefined;

function emptyCluster(): Promise<Blob> {
  template ??= readFile(TEMPLATE)
    .catch(async () => {
      const db = await PGlite.create();
      const dump = Buffer.from(await (await db.dumpDataDir("none")).arrayBuffer());
      await db.close();
      // Written aside and renamed: a test file starting beside this one never reads half of it.
      const aside = `${TEMPLATE}.${process.pid}`;
      await writeFile(aside, dump);
      await rename(aside, TEMPLATE);
      return dump;
    })
    .then((bytes) => new Blob([new Uint8Array(bytes)]));
  return template;
}
