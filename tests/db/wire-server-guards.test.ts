import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import net from "node:net";
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

describe("the wire server reads no more than a sign-in needs before it", () => {
  /** Raw bytes to the server; resolves when it closes the connection, with how long that took and what it answered. */
  function flood(port: number, first: Buffer, keepSending: boolean, budgetMs: number): Promise<{ closedAfterMs: number; answer: Buffer; sent: number }> {
    return new Promise((resolve) => {
      const started = Date.now();
      const socket = net.connect(port, "127.0.0.1");
      const chunks: Buffer[] = [];
      let sent = 0;
      let timer: NodeJS.Timeout | undefined;
      socket.on("connect", () => {
        socket.write(first);
        sent += first.length;
        // A client that never stops: 1 MB every 20 ms, until the server hangs up (or the budget runs out).
        if (keepSending) timer = setInterval(() => socket.writable && (sent += 1 << 20) && socket.write(Buffer.alloc(1 << 20, 0x41)), 20);
      });
      socket.on("data", (d) => chunks.push(d));
      socket.on("error", () => undefined);
      const give = setTimeout(() => socket.destroy(), budgetMs);
      socket.on("close", () => {
        clearInterval(timer);
        clearTimeout(give);
        resolve({ closedAfterMs: Date.now() - started, answer: Buffer.concat(chunks), sent });
      });
    });
  }

  const startup = (declaredLength: number) => {
    const packet = Buffer.alloc(8);
    packet.writeInt32BE(declaredLength, 0);
    packet.writeInt32BE(196608, 4); // protocol 3.0
    return packet;
  };
  function startupMessage(): Buffer {
    const body = Buffer.from("user\0postgres\0database\0postgres\0\0");
    const head = Buffer.alloc(8);
    head.writeInt32BE(8 + body.length, 0);
    head.writeInt32BE(196608, 4);
    return Buffer.concat([head, body]);
  }

  test("a startup packet that declares 2 GB is refused at once, while its client keeps sending", async () => {
    const host = await startInMemoryDatabase();
    try {
      const port = Number(new URL(host.url).port);
      const { closedAfterMs, answer } = await flood(port, startup(0x7fffffff), true, 8000);
      assert.ok(closedAfterMs < 2500, `closed after ${closedAfterMs} ms`);
      assert.equal(String.fromCharCode(answer[0]), "E", "an ErrorResponse first");
      assert.match(answer.toString("latin1"), /08P01/);
      // And the server still serves signed-in clients.
      const client = await connect(host.url);
      assert.deepEqual((await client.query("SELECT 2 AS two")).rows, [{ two: 2 }]);
      await client.end();
    } finally {
      await host.stop();
    }
  });

  test("an authentication message over 10,000 bytes is refused at once", async () => {
    const host = await startInMemoryDatabase();
    try {
      const port = Number(new URL(host.url).port);
      const sasl = Buffer.alloc(5);
      sasl.write("p", 0, "latin1");
      sasl.writeInt32BE(0x7ffffff0, 1);
      const { closedAfterMs, answer } = await flood(port, Buffer.concat([startupMessage(), sasl]), true, 8000);
      assert.ok(closedAfterMs < 2500, `closed after ${closedAfterMs} ms`);
      assert.match(answer.toString("latin1"), /08P01/);
    } finally {
      await host.stop();
    }
  });

  test("the sign-in deadline holds for a client that is still sending", { timeout: 30_000 }, async () => {
    const host = await startInMemoryDatabase();
    try {
      const port = Number(new URL(host.url).port);
      // A legal-sized password message, trickled one byte every 50 ms: it would take 8 minutes.
      const started = Date.now();
      const socket = net.connect(port, "127.0.0.1");
      socket.on("error", () => undefined);
      const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now() - started)));
      socket.on("connect", () => {
        const head = Buffer.alloc(5);
        head.write("p", 0, "latin1");
        head.writeInt32BE(9_000, 1);
        socket.write(Buffer.concat([startupMessage(), head]));
        const trickle = setInterval(() => (socket.writable ? socket.write("a") : clearInterval(trickle)), 50);
        socket.on("close", () => clearInterval(trickle));
      });
      const closedAfterMs = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(Infinity), 20_000))]);
      socket.destroy();
      assert.ok(closedAfterMs >= 9_000 && closedAfterMs < 13_000, `closed after ${closedAfterMs} ms (the deadline is 10 s)`);
    } finally {
      await host.stop();
    }
  });
});

describe("after sign-in, the wire server holds at most one exchange of 64 MiB", () => {
  /** A signed-in client's raw socket, and how the server ends it (its ErrorResponse's code, if any). */
  async function signedIn(url: string) {
    const client = new pg.Client({ connectionString: url });
    const refused = new Promise<string | undefined>((resolve) => {
      client.on("error", (err: Error & { code?: string }) => resolve(err.code));
      client.on("end", () => resolve(undefined));
    });
    await client.connect();
    const socket = (client as unknown as { connection: { stream: net.Socket } }).connection.stream;
    return { client, socket, refused };
  }
  const within = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([promise, new Promise<"still open">((r) => setTimeout(() => r("still open"), ms).unref())]);

  test("a message that declares 2 GB is refused at once (08P01)", { timeout: 30_000 }, async () => {
    const host = await startInMemoryDatabase();
    try {
      const { socket, refused } = await signedIn(host.url);
      const parse = Buffer.alloc(5);
      parse.write("P", 0, "latin1");
      parse.writeInt32BE(0x7fffffff, 1);
      socket.write(parse);
      assert.equal(await within(refused, 5000), "08P01");
    } finally {
      await host.stop();
    }
  });

  // Without the bound, messages that never reach a Sync pile up in the server for as long as they come.
  test("messages past 64 MiB without a Sync end the connection (54000); others are still served", { timeout: 60_000 }, async () => {
    const host = await startInMemoryDatabase();
    try {
      const { socket, refused } = await signedIn(host.url);
      const copyData = Buffer.alloc(1024 * 1024, 0x61);
      copyData.write("d", 0, "latin1");
      copyData.writeInt32BE(copyData.length - 1, 1);
      for (let i = 0; i < 70 && !socket.destroyed; i++) {
        if (!socket.write(copyData)) await within(new Promise((r) => socket.once("drain", r)), 5000);
      }
      assert.equal(await within(refused, 10_000), "54000");
      const other = await connect(host.url);
      assert.deepEqual((await other.query("SELECT 3 AS three")).rows, [{ three: 3 }]);
      await other.end();
    } finally {
      await host.stop();
    }
  });

  test("a value of 19 MB (a 600 s recognition piece) still goes through", { timeout: 60_000 }, async () => {
    const host = await startInMemoryDatabase();
    try {
      const client = await connect(host.url);
      await client.query("CREATE TABLE piece (audio bytea)");
      await client.query("INSERT INTO piece VALUES ($1)", [Buffer.alloc(19_200_044, 7)]);
      assert.deepEqual((await client.query("SELECT length(audio) AS n FROM piece")).rows, [{ n: 19_200_044 }]);
      await client.end();
    } finally {
      await host.stop();
    }
  });
});

describe("the embedded database's wire server sends large results intact", () => {
  // PGlite hands each piece of its reply as a view of its own memory, which it writes the next
  // piece into. A socket that cannot send at once (the client reads slowly) queues what it was
  // given without copying: the server must copy, or a reply of megabytes reaches the client with
  // later bytes in place of earlier ones (a 5-minute live recording's chunks hung the app).
  test("a reply of megabytes read by a slow client arrives byte for byte", async () => {
    const host = await startInMemoryDatabase();
    const client = await connect(host.url);
    try {
      await client.query("CREATE TABLE blobs (id int PRIMARY KEY, data bytea NOT NULL)");
      const rows = Array.from({ length: 6 }, (_, i) => randomBytes(1024 * 1024 + i));
      for (const [i, data] of rows.entries()) await client.query("INSERT INTO blobs VALUES ($1, $2)", [i, data]);
      const stream = (client as unknown as { connection: { stream: net.Socket } }).connection.stream;
      const reading = client.query("SELECT id, data FROM blobs ORDER BY id");
      stream.pause(); // the reply piles up in the server's socket
      await new Promise((r) => setTimeout(r, 500));
      stream.resume();
      const { rows: read } = await reading;
      assert.equal(read.length, rows.length);
      for (const [i, row] of read.entries()) assert.ok(Buffer.compare(row.data, rows[i]) === 0, `row ${i} differs from what was stored`);
    } finally {
      await client.end().catch(() => undefined);
      await host.stop();
    }
  });
});
