import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import pg from "pg";
import { EmbeddedDatabaseBusy, findEmbeddedHost, hostEmbeddedDatabase } from "@/lib/db/embedded.ts";
import { startInMemoryDatabase } from "@/tests/support/in-memory-database.ts";

describe("the embedded database's wire server", () => {
  test("concurrent clients never see each other's statements or parameters", async () => {
    const host = await startInMemoryDatabase();
    const pool = new pg.Pool({ connectionString: host.url, max: 12 });
    try {
      const results = await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          const { rows } = await pool.query("SELECT $1::int * 2 AS doubled, $2::text AS label", [i, `q${i}`]);
          return rows[0];
        }),
      );
      results.forEach((row, i) => assert.deepEqual(row, { doubled: i * 2, label: `q${i}` }));
    } finally {
      await pool.end();
      await host.stop();
    }
  });

  test("a transaction is isolated from other connections until it commits", async () => {
    const host = await startInMemoryDatabase();
    const a = new pg.Client(host.url);
    const b = new pg.Client(host.url);
    await a.connect();
    await b.connect();
    try {
      await a.query("CREATE TABLE counter (n int)");
      await a.query("INSERT INTO counter VALUES (0)");
      await a.query("BEGIN");
      await a.query("UPDATE counter SET n = n + 1");
      // b's statement waits for a's transaction instead of running inside it.
      let bDone = false;
      const bRead = b.query("SELECT n FROM counter").then((r) => {
        bDone = true;
        return r.rows[0].n;
      });
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(bDone, false);
      await a.query("ROLLBACK");
      assert.equal(await bRead, 0);
    } finally {
      await a.end();
      await b.end();
      await host.stop();
    }
  });

  test("a client that disconnects inside a transaction has it rolled back", async () => {
    const host = await startInMemoryDatabase();
    const a = new pg.Client(host.url);
    const b = new pg.Client(host.url);
    await a.connect();
    await b.connect();
    try {
      a.on("error", () => undefined); // it is about to lose its connection on purpose
      await a.query("CREATE TABLE t (n int)");
      await a.query("BEGIN");
      await a.query("INSERT INTO t VALUES (1)");
      const waiting = b.query("SELECT count(*)::int AS n FROM t");
      (a as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      assert.equal((await waiting).rows[0].n, 0);
    } finally {
      await a.end().catch(() => undefined);
      await b.end();
      await host.stop();
    }
  });
});

describe("hosting the on-disk database", () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  test("one process hosts a data directory; others find it through the lock file", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "vd-embedded-"));
    dirs.push(dir);
    const host = await hostEmbeddedDatabase(dir, "test");
    try {
      const lock = JSON.parse(await readFile(path.join(dir, "embedded-db.lock"), "utf8"));
      assert.equal(lock.pid, process.pid);
      assert.equal(lock.role, "test");
      await assert.rejects(hostEmbeddedDatabase(dir, "second"), EmbeddedDatabaseBusy);
      // The hosting process itself is not told to connect to itself as a foreign host.
      assert.equal(await findEmbeddedHost(dir), null);
      const client = new pg.Client(host.url);
      await client.connect();
      await client.query("CREATE TABLE kept (v text)");
      await client.query("INSERT INTO kept VALUES ('still here')");
      await client.end();
    } finally {
      await host.stop();
    }
    // The lock is released and the data survives a restart.
    const again = await hostEmbeddedDatabase(dir, "test");
    try {
      const client = new pg.Client(again.url);
      await client.connect();
      assert.deepEqual((await client.query("SELECT v FROM kept")).rows, [{ v: "still here" }]);
      await client.end();
    } finally {
      await again.stop();
    }
  });

  test("a stale lock left by a dead process is taken over", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "vd-embedded-"));
    dirs.push(dir);
    const { writeFile } = await import("node:fs/promises");
    await writeFile(path.join(dir, "embedded-db.lock"), JSON.stringify({ pid: 2 ** 22 + 7, port: 1, role: "gone" }));
    assert.equal(await findEmbeddedHost(dir), null);
    const host = await hostEmbeddedDatabase(dir, "test");
    await host.stop();
  });
});
