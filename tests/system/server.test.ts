import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { ROOT, runScript, startServer, type RunningServer } from "../support/processes.ts";
import { NO_NEWER_NODE, newerNode } from "../support/newer-node.ts";
import { JFK_WAV } from "../support/audio.ts";

// `npm start` for real: the launcher hosts the embedded database, builds if needed, runs
// the app's server (Next's custom server, scripts/serve.ts); the admin CLI creates keys against the live server's database; requests go over HTTP.
describe("npm start on the embedded database", () => {
  let dataDir: string;
  let server: RunningServer;
  let key: string;
  const password = "correct horse battery staple";
  const env = () => ({ DATA_DIR: dataDir, DATABASE_URL: "" });
  const UPLOAD_LIMIT = 11 * 1024 * 1024;
  const UNKNOWN_KEY_LIMIT = 5;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "vd-server-"));
    const user = await runScript("admin.ts", ["create-user", "--email", "smoke@example.com", "--password", password], env());
    assert.equal(user.code, 0, user.stderr);
    server = await startServer({ ...env(), MAX_UPLOAD_BYTES: String(UPLOAD_LIMIT), RATE_LIMIT_UNKNOWN_KEYS_PER_MINUTE: String(UNKNOWN_KEY_LIMIT) });
    // The CLI now reaches the database the running server hosts.
    const created = await runScript("admin.ts", ["create-key", "--email", "smoke@example.com"], env());
    assert.equal(created.code, 0, created.stderr);
    key = created.stdout.trimEnd().split("\n").at(-1)!;
  });

  after(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const api = (p: string, init: RequestInit = {}, withKey = true) =>
    fetch(`${server.url}${p}`, {
      ...init,
      headers: { ...(withKey ? { authorization: `Bearer ${key}` } : {}), ...(init.headers as Record<string, string>) },
    });

  test("health reports the embedded database, migrated", async () => {
    const res = await api("/api/health", {}, false);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.status, "ok");
    assert.equal(body.database.kind, "embedded");
    assert.deepEqual(body.database.pending_migrations, []);
    assert.ok(res.headers.get("x-request-id"));
    // Pages are compressed for clients that accept it, by Next (fetch sends Accept-Encoding: gzip, …).
    const page = await api("/sign-in", {}, false);
    assert.equal(page.headers.get("content-encoding"), "gzip");
    assert.match(page.headers.get("vary") ?? "", /Accept-Encoding/);
    const document = await api("/api/v1/openapi.json", {}, false);
    assert.equal((await document.json()).openapi.startsWith("3."), true);
  });

  test("the dictionary round trip over HTTP, as in the README's curl examples", async () => {
    const add = await api("/api/v1/dictionary/add", {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "smoke-test-0001" },
      body: JSON.stringify({ misspelling: "cooper netties", correct_spelling: "Kubernetes" }),
    });
    assert.equal(add.status, 201);
    assert.equal(add.headers.get("x-request-id"), "smoke-test-0001");
    const list = await (await api("/api/v1/dictionary")).json();
    assert.deepEqual(list.entries.map((e: { correct_spelling: string }) => e.correct_spelling), ["Kubernetes"]);
    const del = await api(`/api/v1/dictionary/delete?misspelling=${encodeURIComponent("Cooper Netties")}`, { method: "DELETE" });
    assert.equal(del.status, 200);
    assert.equal((await api(`/api/v1/dictionary/delete?misspelling=cooper%20netties`, { method: "DELETE" })).status, 404);
  });

  test("errors keep the API's shape over HTTP: 401, unknown endpoint, bad JSON", async () => {
    const unauthorized = await api("/api/v1/dictionary", {}, false);
    assert.equal(unauthorized.status, 401);
    assert.match(unauthorized.headers.get("www-authenticate") ?? "", /^Bearer/);
    assert.equal((await unauthorized.json()).error.code, "unauthorized");
    const missing = await api("/api/v1/nothing-here");
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).error.code, "not_found");
    const wrongMethod = await api("/api/v1/dictionary", { method: "PUT" });
    assert.equal(wrongMethod.status, 405);
    assert.ok(wrongMethod.headers.get("x-request-id"), "even Next's own 405 carries a request id");
    const page = await api("/", {}, false);
    assert.ok(page.headers.get("x-request-id"), "pages carry a request id too");
    const bad = await api("/api/v1/dictionary/add", { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    assert.equal(bad.status, 400);
    const body = await bad.json();
    assert.equal(body.error.code, "invalid_json");
    assert.equal(body.error.request_id, bad.headers.get("x-request-id"));
  });

  test("the OpenAPI document and the docs page are served", async () => {
    const doc = await api("/api/v1/openapi.json", {}, false);
    assert.equal(doc.status, 200);
    assert.match((await doc.json()).openapi, /^3\.1\./);
    const page = await api("/docs", {}, false);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /\/api\/v1\/dictionary\/add/);
  });

  test("POST /transcribe over HTTP: real speech in, transcript out", async () => {
    const body = new FormData();
    body.set("audio", new Blob([new Uint8Array(await readFile(JFK_WAV))]), "jfk.wav");
    const res = await api("/transcribe", { method: "POST", body });
    assert.equal(res.status, 200);
    assert.ok(res.headers.get("x-request-id"));
    assert.match((await res.json()).text, /\bcountry\b/);
  });

  test("an assistant's MCP client (the MCP Inspector CLI) lists the tools and calls them with a key", { skip: newerNode() ? false : NO_NEWER_NODE }, async () => {
    // The Inspector CLI runs its client with the `node` on PATH: the newer one (it needs Node 22+).
    // It looks for its package.json relative to the working directory (1.0.3), hence cwd.
    const node = newerNode()!;
    const build = path.join(ROOT, "node_modules/@modelcontextprotocol/inspector-cli/build");
    const inspector = (...args: string[]) =>
      promisify(execFile)(node, [path.join(build, "cli.js"), "--cli", `${server.url}/mcp`, "--transport", "http", "--header", `Authorization: Bearer ${key}`, ...args], {
        cwd: build,
        env: { ...process.env, PATH: `${path.dirname(node)}:${process.env.PATH}` },
        timeout: 60_000,
      }).then(({ stdout }) => JSON.parse(stdout));
    const { tools } = await inspector("--method", "tools/list");
    const names = tools.map((t: { name: string }) => t.name);
    for (const name of ["search_notes", "get_note", "list_notes", "make_posts", "transcribe_audio"]) assert.ok(names.includes(name), `${name} in ${names}`);
    // The note the transcription test above made, found by a word JFK said
    const found = await inspector("--method", "tools/call", "--tool-name", "search_notes", "--tool-arg", "query=country");
    const notes = found.structuredContent.notes as { id: string; snippet: string }[];
    assert.equal(notes.length, 1, JSON.stringify(found));
    const note = await inspector("--method", "tools/call", "--tool-name", "get_note", "--tool-arg", `id=${notes[0].id}`);
    assert.match(note.structuredContent.text, /\bcountry\b/);
    const { resourceTemplates } = await inspector("--method", "resources/templates/list");
    assert.ok(resourceTemplates.some((t: { uriTemplate: string }) => t.uriTemplate === "note://{id}"));
  });

  test("an upload beyond 10 MB reaches the handler whole (Next's proxy would cut it at 10 MB)", async () => {
    // 12 MiB against an 11 MiB limit: only a body that arrives complete can be refused as too large.
    const big = Buffer.concat([await readFile(JFK_WAV), Buffer.alloc(12 * 1024 * 1024)]);
    const body = new FormData();
    body.set("audio", new Blob([new Uint8Array(big)]), "big.wav");
    const res = await api("/transcribe", { method: "POST", body });
    assert.equal(res.status, 413);
    assert.equal((await res.json()).error.code, "payload_too_large");
  });

  test("a second server on the same data directory refuses clearly", async () => {
    const second = await runScript("start.ts", [], { ...env(), PORT: "1", LOG_LEVEL: "info" });
    assert.equal(second.code, 1);
    assert.match(second.stderr, /in use by process \d+ \(server\)/);
  });

  test("a key revoked with the CLI stops working within half a second", async () => {
    const created = await runScript("admin.ts", ["create-key", "--email", "smoke@example.com", "--name", "short-lived"], env());
    const shortLived = created.stdout.trimEnd().split("\n").at(-1)!;
    const headers = { authorization: `Bearer ${shortLived}` };
    assert.equal((await fetch(`${server.url}/api/v1/dictionary`, { headers })).status, 200);
    const revoked = await runScript("admin.ts", ["revoke-key", "--email", "smoke@example.com", "--key", shortLived.slice(0, 9)], env());
    assert.equal(revoked.code, 0, revoked.stderr);
    // The server keeps a key it has just checked for 500 ms (lib/api-keys/authenticate-api-key.ts).
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await fetch(`${server.url}/api/v1/dictionary`, { headers })).status, 401);
  });

  test("logs are JSON lines with request id, route, status and duration, and never a key or password", async () => {
    await new Promise((r) => setTimeout(r, 200));
    const lines = server
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"));
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === "request");
    const add = requests.find((r) => r.request_id === "smoke-test-0001");
    assert.ok(add, "the add request was logged under its request id");
    assert.equal(add.route, "/api/v1/dictionary/add");
    assert.equal(add.status, 201);
    assert.equal(typeof add.duration_ms, "number");
    assert.ok(!server.output().includes(key), "the key never appears in the logs");
    assert.ok(!server.output().includes(password), "the password never appears in the logs");
  });

  test("API requests go through Next's router (one path), with the site's headers once each", async () => {
    const res = await api("/api/v1/dictionary?limit=1");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("vary") ?? "", /rsc/i, "Next's router answered it (it adds Vary: rsc, …)");
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    assert.equal(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin");
    assert.match(res.headers.get("permissions-policy") ?? "", /microphone=\(self\)/);
    const ids = (res.headers.get("x-request-id") ?? "").split(",");
    assert.equal(ids.length, 1, `one request id: ${res.headers.get("x-request-id")}`);
  });

  // Last before stopping: it leaves this client's address refused for a minute.
  test("a client's own X-Forwarded-For does not dodge the per-address limit (no TRUST_PROXY)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < UNKNOWN_KEY_LIMIT + 3; i++) {
      const res = await api("/api/v1/dictionary", {
        headers: { authorization: `Bearer vd_${"x".repeat(42)}${i % 10}`, "x-forwarded-for": `203.0.113.${i + 1}` },
      }, false);
      statuses.push(res.status);
    }
    // Earlier tests here may have spent one try (the revoked key); forged addresses must not reset it.
    const firstRefusal = statuses.indexOf(429);
    assert.ok(firstRefusal > 0 && firstRefusal <= UNKNOWN_KEY_LIMIT, `got ${statuses.join(",")}`);
    assert.ok(statuses.slice(0, firstRefusal).every((s) => s === 401), `got ${statuses.join(",")}`);
    assert.ok(statuses.slice(firstRefusal).every((s) => s === 429), `got ${statuses.join(",")}`);
  });

  test("stops cleanly on SIGTERM and releases the database", async () => {
    assert.equal(await server.stop(), 0);
    const user = await runScript("admin.ts", ["list-keys", "--email", "smoke@example.com", "--json"], env());
    assert.equal(user.code, 0, user.stderr);
    assert.equal(JSON.parse(user.stdout).length, 2);
  });
});
