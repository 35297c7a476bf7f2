import assert from "node:assert/strict";
import { readFile, rm, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import pg from "pg";
import { JFK_WAV } from "../support/audio.ts";
import { freePort, runScript, seedEmbeddedDatabase, startServer, type RunningServer } from "../support/processes.ts";

// Issue 66, item 6: "Hear it again" accepted with 202 was an in-memory queue, lost on kill -9. Now
// a job: a server that accepts the pass and is killed (SIGKILL, its whole process group) before
// any worker took it, then started again on the same DATA_DIR, runs it.
const EMAIL = "second-pass@example.com";
const WHISPER_TEST_MODEL = path.resolve("tests/fixtures/for-tests-ggml-tiny.en.bin");

async function queueState(dataDir: string): Promise<string[]> {
  const lock = JSON.parse(await readFile(path.join(dataDir, "embedded-db.lock"), "utf8")) as { port: number };
  const secret = (await readFile(path.join(dataDir, "embedded-db.secret"), "utf8")).trim();
  const client = new pg.Client({ host: "127.0.0.1", port: lock.port, user: "postgres", password: secret, database: "postgres" });
  await client.connect();
  try {
    const { rows } = await client.query<{ state: string }>("SELECT state FROM pgboss.job WHERE name = 'second-pass' ORDER BY created_on");
    return rows.map((r) => r.state);
  } finally {
    await client.end();
  }
}

describe("a second pass accepted before a kill -9", () => {
  let dataDir: string;
  const servers: RunningServer[] = [];
  after(async () => {
    for (const server of servers) {
      try {
        process.kill(-server.child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test("runs after the restart, and the note stops saying its text is improving", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "vd-second-pass-"));
    await seedEmbeddedDatabase(dataDir);
    const port = String(await freePort());
    const base = { DATA_DIR: dataDir, DATABASE_URL: "", PORT: port, OPTIMIZER: "off" };

    // A note heard by the basic recognizer, its recording kept.
    const first = await startServer({ ...base, TRANSCRIBE_ENGINE: "pocketsphinx" });
    servers.push(first);
    assert.equal((await runScript("admin.ts", ["create-user", "--email", EMAIL, "--password", "correct horse battery staple"], base)).code, 0);
    const created = await runScript("admin.ts", ["create-key", "--email", EMAIL], base);
    // The key alone on the last line (an earlier line names its prefix, shortened with "…").
    const key = created.stdout.trimEnd().split("\n").at(-1);
    assert.ok(key, created.stdout + created.stderr);
    const form = new FormData();
    form.set("audio", new Blob([new Uint8Array(await readFile(JFK_WAV))]), "jfk.wav");
    const uploaded = await fetch(`${first.url}/transcribe`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
    const note = (await uploaded.json()) as { id: string; engine: string; audio?: unknown };
    assert.equal(uploaded.status, 200, JSON.stringify(note));
    assert.equal(note.engine, "pocketsphinx");
    assert.equal(await first.stop(), 0);

    // The accurate recognizer has arrived; this server takes no jobs, so the pass only waits in the queue.
    const accurate = { ...base, TRANSCRIBE_ENGINE: "whisper", WHISPER_MODEL: WHISPER_TEST_MODEL };
    const second = await startServer({ ...accurate, JOBS_IN_APP: "false" });
    servers.push(second);
    const heard = await fetch(`${second.url}/api/v1/transcriptions/${note.id}/hear-again`, { method: "POST", headers: { authorization: `Bearer ${key}` } });
    const accepted = (await heard.json()) as { text_improving: boolean };
    assert.equal(heard.status, 202, JSON.stringify(accepted));
    assert.equal(accepted.text_improving, true);
    assert.deepEqual(await queueState(dataDir), ["created"]);
    const exited = new Promise((resolve) => second.child.once("exit", resolve));
    process.kill(-second.child.pid!, "SIGKILL");
    await exited;

    // Started again: the pass runs, and the note says it is done.
    const third = await startServer(accurate);
    servers.push(third);
    const read = async () => (await (await fetch(`${third.url}/api/v1/transcriptions/${note.id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { text_improving: boolean };
    let states = await queueState(dataDir);
    for (const until = Date.now() + 120_000; states.at(-1) !== "completed" && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      states = await queueState(dataDir);
    }
    assert.deepEqual(states, ["completed"], third.output());
    assert.equal((await read()).text_improving, false);
    assert.match(third.output(), /note heard again/);
    assert.equal(await third.stop(), 0);
  });
});
