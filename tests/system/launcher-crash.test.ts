import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import pg from "pg";
import { freePort, runScript, startServer, type RunningServer } from "../support/processes.ts";

// The launcher hosts the embedded database and is the biggest process, so the one an OOM killer
// picks. Killed with SIGKILL, it cannot tell the Next server to stop: the server must notice alone.
const EMAIL = "crash@example.com";
const PASSWORD = "correct horse battery staple";

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

function setCookies(res: Response): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const eq = pair.indexOf("=");
    cookies.set(pair.slice(0, eq), decodeURIComponent(pair.slice(eq + 1)));
  }
  return cookies;
}

/** Signs in as a browser does (next-auth's CSRF token, then the credentials callback). */
async function signIn(url: string): Promise<string> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = [...setCookies(csrf)].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ");
  const res = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie, origin: url },
    body: new URLSearchParams({ csrfToken, email: EMAIL, password: PASSWORD, json: "true" }),
  });
  const token = setCookies(res).get("next-auth.session-token");
  assert.ok(token, `no session cookie after signing in (HTTP ${res.status})`);
  return token;
}

async function sessionUser(url: string, token: string): Promise<string | undefined> {
  const res = await fetch(`${url}/api/auth/session`, { headers: { cookie: `next-auth.session-token=${token}` } });
  return ((await res.json()) as { user?: { id?: string } }).user?.id;
}

async function embeddedDatabase(dataDir: string): Promise<{ pid: number; client: pg.Client }> {
  const lock = JSON.parse(await readFile(path.join(dataDir, "embedded-db.lock"), "utf8")) as { pid: number; port: number };
  const secret = (await readFile(path.join(dataDir, "embedded-db.secret"), "utf8")).trim();
  const client = new pg.Client({ host: "127.0.0.1", port: lock.port, user: "postgres", password: secret, database: "postgres" });
  await client.connect();
  return { pid: lock.pid, client };
}

describe("npm start after its launcher was killed with SIGKILL", () => {
  let dataDir: string;
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
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test("the Next server dies with it; a new start on the same DATA_DIR and PORT keeps all data", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "vd-crash-"));
    const env = { DATA_DIR: dataDir, DATABASE_URL: "", PORT: String(await freePort()) };
    const first = await startServer(env);
    servers.push(first);
    const created = await runScript("admin.ts", ["create-user", "--email", EMAIL, "--password", PASSWORD], env);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, new RegExp(`embedded database in ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    const token = await signIn(first.url);
    const userId = await sessionUser(first.url, token);
    assert.ok(userId);

    // The database keeps only the cookie's hash: a copy of it signs nobody in.
    const { pid, client } = await embeddedDatabase(dataDir);
    const { rows } = await client.query<{ token_hash: string }>("SELECT token_hash FROM sessions");
    await client.end();
    assert.deepEqual(rows.map((r) => r.token_hash), [createHash("sha256").update(token).digest("hex")]);
    assert.ok(!JSON.stringify(rows).includes(token));

    const wrapperExited = once(first.child, "exit");
    process.kill(pid, "SIGKILL");
    await wrapperExited;
    // Without the guard, the orphaned Next server holds the port for good.
    const deadline = Date.now() + 30_000;
    while (!(await portIsFree(Number(env.PORT))) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    assert.equal(await portIsFree(Number(env.PORT)), true, "the Next server outlived its launcher");

    const second = await startServer(env);
    servers.push(second);
    assert.equal(await sessionUser(second.url, token), userId, "the user and their session survived");
    const listed = await runScript("admin.ts", ["list-keys", "--email", EMAIL], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(await second.stop(), 0);
  });
});
