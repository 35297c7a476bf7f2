import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import pg from "pg";
import { hostEmbeddedDatabase } from "@/lib/db/embedded.ts";
import { startInMemoryDatabase } from "@/tests/support/in-memory-database.ts";

function withPassword(url: string, password: string | null): string {
  const u = new URL(url);
  u.password = password ?? "";
  return u.toString();
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined); // the server may end it on purpose
  await client.connect();
  return client;
}

describe("the embedded database's wire server requires its secret", () => {
  test("a client without the secret, or with a wrong one, is refused", async () => {
    const host = await startInMemoryDatabase();
    try {
      for (const password of [null, "wrong-secret"]) {
        const client = new pg.Client({ connectionString: withPassword(host.url, password) });
        client.on("error", () => undefined);
        await assert.rejects(client.connect(), (err: Error & { code?: string }) => {
          assert.ok(err.code === "28P01" || /password/i.test(err.message), err.message);
          return true;
        });
        await client.end().catch(() => undefined);
      }
      const ok = await connect(host.url);
      assert.deepEqual((await ok.query("SELECT 1 AS one")).rows, [{ one: 1 }]);
      await ok.end();
    } finally {
      await host.stop();
    }
  });

  test("the on-disk host keeps its secret in DATA_DIR, readable by its owner only", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), "vd-wire-"));
    const dataDir = path.join(parent, "data");
    const host = await hostEmbeddedDatabase(dataDir, "test");
    try {
      assert.equal((await stat(dataDir)).mode & 0o777, 0o700);
      const file = path.join(dataDir, "embedded-db.secret");
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      const secret = (await readFile(file, "utf8")).trim();
      assert.equal(decodeURIComponent(new URL(host.url).password), secret);
      const client = new pg.Client({ connectionString: withPassword(host.url, null) });
      client.on("error", () => undefined);
      await assert.rejects(client.connect());
      await client.end().catch(() => undefined);
    } finally {
      await host.stop();
      await rm(parent, { recursive: true, force: true });
    }
  });
});

describe("one client cannot stall the embedded database", () => {
  const hosts: { stop(): Promise<void> }[] = [];
  after(async () => {
    for (const host of hosts) await host.stop();
  });

  // Without the guards the other client's query waits forever; the test timeout turns that into a failure.
  test("a client idle inside its transaction is rolled back and disconnected", { timeout: 30_000 }, async () => {
    const host = await startInMemoryDatabase({ idleInTransactionMs: 300, maxTurnMs: 60_000 });
    hosts.push(host);
    const idle = await connect(host.url);
    const other = await connect(host.url);
    await idle.query("CREATE TABLE t (n int)");
    await idle.query("BEGIN");
    await idle.query("INSERT INTO t VALUES (1)");
    await idle.query("SELECT 1");
    const ended = new Promise((resolve) => idle.once("end", resolve));
    // Runs once the idle client has been thrown out, and sees none of its uncommitted work.
    assert.deepEqual((await other.query("SELECT count(*)::int AS n FROM t")).rows, [{ n: 0 }]);
    await ended;
    await assert.rejects(idle.query("SELECT 1"));
    await other.end();
  });

  test("a client holding the session past the cap is disconnected, even while busy", { timeout: 30_000 }, async () => {
    const host = await startInMemoryDatabase({ idleInTransactionMs: 60_000, maxTurnMs: 500 });
    hosts.push(host);
    const busy = await connect(host.url);
    const other = await connect(host.url);
    await busy.query("BEGIN");
    // Busy inside its transaction until the server throws it out (never, without the cap).
    const keepBusy = (async () => {
      for (;;) {
        await busy.query("SELECT 1");
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    // Handled from the start: which of the two finishes first depends on the machine's load, and a
    // rejection nobody handles yet fails the test.
    const thrownOut = assert.rejects(keepBusy);
    assert.deepEqual((await other.query("SELECT 2 AS two")).rows, [{ two: 2 }]);
    await thrownOut;
    await other.end();
  });
});
