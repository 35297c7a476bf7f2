import assert from "node:assert/strict";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import net from "node:net";
import path from "node:path";
import { after, describe, test } from "node:test";
import pg from "pg";
import { freePort, runScript, startServer, type RunningServer } from "../support/processes.ts";

// `npm start` takes requests once the database and Next answer (scripts/serve.ts warms itself up
// on a private port first): a client polling /api/health from the spawn sees no connection, then
// 200, and never a 503. The health check's database timeout is made short here, so that a server
// whose first request still had to start the job workers and the database client would answer 503.
const FAST_HEALTH = { HEALTH_DB_TIMEOUT_SECONDS: "0.5" };

/** What /api/health answered before its first 200, other than "no connection yet". */
const answersBeforeHealthy = (server: RunningServer) => server.healthSeen.slice(0, -1).filter((status) => status !== 0);

async function storedMisspellings(dataDir: string): Promise<Set<string>> {
  const lock = JSON.parse(await readFile(path.join(dataDir, "embedded-db.lock"), "utf8")) as { port: number };
  const secret = (await readFile(path.join(dataDir, "embedded-db.secret"), "utf8")).trim();
  const client = new pg.Client({ host: "127.0.0.1", port: lock.port, user: "postgres", password: secret, database: "postgres" });
  await client.connect();
  try {
    const { rows } = await client.query<{ misspelling: string }>("SELECT misspelling FROM dictionary_entries");
    return new Set(rows.map((r) => r.misspelling));
  } finally {
    await client.end();
  }
}

describe("npm start takes requests once it is ready", () => {
  const dataDirs: string[] = [];
  const servers: RunningServer[] = [];

  after(async () => {
    for (const server of servers) {
      await server.stop().catch(() => undefined);
      try {
        process.kill(-server.child.pid!, "SIGKILL"); // anything left in its process group
      } catch {
        // already gone
      }
    }
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  test("from the spawn to healthy, /api/health never answers 503: on a new DATA_DIR, then on the same one again", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "vd-start-"));
    dataDirs.push(dataDir);
    const env = { DATA_DIR: dataDir, DATABASE_URL: "", PORT: String(await freePort()), ...FAST_HEALTH };
    for (const run of ["new DATA_DIR", "existing DATA_DIR"]) {
      const server = await startServer(env, 300_000, { pollMs: 20 });
      servers.push(server);
      assert.ok(server.healthSeen.length > 1, `${run}: the poller started before the server listened`);
      assert.deepEqual(answersBeforeHealthy(server), [], `${run}: answers before the first 200`);
      assert.equal(await server.stop(), 0);
    }
  });

  test("after kill -9 of the whole tree with writes in flight, the next start is healthy at once and every acknowledged write is there", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "vd-start-crash-"));
    dataDirs.push(dataDir);
    const env = { DATA_DIR: dataDir, DATABASE_URL: "", PORT: String(await freePort()), RATE_LIMIT_API_PER_MINUTE: "0", ...FAST_HEALTH };
    const first = await startServer(env);
    servers.push(first);
    const email = "kill9@example.com";
    const user = await runScript("admin.ts", ["create-user", "--email", email, "--password-stdin"], env, "correct horse battery staple\n");
    assert.equal(user.code, 0, user.stderr);
    const created = await runScript("admin.ts", ["create-key", "--email", email], env);
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim().split("\n").at(-1)!;

    const acknowledged: string[] = [];
    let killed = false;
    const writer = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const misspelling = `writer${w} entry${i}`;
        const res = await fetch(`${first.url}/api/v1/dictionary/add`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ misspelling, correct_spelling: `Entry${i}` }),
        }).catch(() => null);
        if (!res) return;
        if (res.status === 201) acknowledged.push(misspelling);
        else await res.body?.cancel();
      }
    };
    const writes = Promise.all([0, 1, 2, 3].map(writer));
    while (acknowledged.length < 20) await new Promise((r) => setTimeout(r, 20));
    // The launcher (the database's host), the Next server and their parent, at once: the launcher
    // is left a zombie until init collects it, and its lock file still names it.
    const exited = once(first.child, "exit");
    process.kill(-first.child.pid!, "SIGKILL");
    killed = true;
    await exited;
    await writes;

    const second = await startServer(env, 300_000, { pollMs: 20 });
    servers.push(second);
    assert.deepEqual(answersBeforeHealthy(second), [], "answers before the first 200");
    const stored = await storedMisspellings(dataDir);
    assert.deepEqual(acknowledged.filter((m) => !stored.has(m)), [], `lost of ${acknowledged.length} acknowledged writes`);
    const listed = await fetch(`${second.url}/api/v1/dictionary`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(listed.status, 200, "the key still works");
    assert.equal(await second.stop(), 0);
  });

  test("on a port another program holds, npm start says so and exits 1 instead of waiting", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "vd-start-"));
    dataDirs.push(dataDir);
    // Another program on the port: it takes connections and closes them (so the health poller is told at once).
    const holder = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = holder.address() as net.AddressInfo;
      const started = startServer({ DATA_DIR: dataDir, DATABASE_URL: "", PORT: String(port) }, 300_000, { pollMs: 200 });
      // The start ends by itself, saying why (it used to log the error and run on, listening nowhere).
      await assert.rejects(started, (err: Error) => {
        assert.match(err.message, /the server exited with 1/);
        assert.match(err.message, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use by another program`));
        return true;
      });
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
