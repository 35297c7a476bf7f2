import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { ROOT, runScript, seedEmbeddedDatabase, startServer, type RunningServer } from "../support/processes.ts";

// The one way a request takes through the production server: lib/http/front-door.ts in front of
// Next's own request handler (scripts/serve.ts). Clients on different loopback addresses
// (127.0.0.2, 127.0.0.3) stand for different people; raw sockets send what fetch cannot.

const EMAIL = "front-door@example.com";
const PASSWORD = "correct horse battery staple";
const UNKNOWN_KEY_LIMIT = 5;
const KEY_LIMIT = 30;

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One HTTP request from a chosen local address (fetch cannot choose it). */
function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; from: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? "GET", headers: options.headers, localAddress: options.from, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Bytes written as they are to a socket, and the raw answer read until the server closes or goes quiet. */
function raw(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(bytes));
    let answer = "";
    socket.setEncoding("latin1");
    socket.setTimeout(3000, () => socket.destroy());
    socket.on("data", (d) => {
      answer += d;
      // A keep-alive answer is complete once its body (by Content-Length) has arrived.
      const head = answer.indexOf("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(answer.slice(0, head))?.[1];
      if (head > 0 && length && answer.length >= head + 4 + Number(length)) socket.destroy();
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

/** The status, headers (lower-case names) and JSON body of a raw HTTP answer. */
function parseRaw(answer: string): { status: number; headers: Record<string, string>; body: unknown } {
  const head = answer.slice(0, answer.indexOf("\r\n\r\n")).split("\r\n");
  const headers = Object.fromEntries(head.slice(1).map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
  const text = answer.slice(answer.indexOf("\r\n\r\n") + 4);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: Number(head[0].split(" ")[1]), headers, body };
}

function assertErrorShape(answer: { status: number; headers: Record<string, string | string[] | undefined>; body: unknown }, status: number, code: string) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  const error = (answer.body as { error?: { code?: string; message?: string; request_id?: string } }).error;
  assert.equal(error?.code, code);
  assert.ok(error?.message);
  assert.equal(error?.request_id, answer.headers["x-request-id"]);
}

describe("one request path: the front door and Next's handler", () => {
  let dataDir: string;
  let server: RunningServer;
  let port: number;
  let key: string;
  const env = () => ({ DATA_DIR: dataDir, DATABASE_URL: "" });

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "vd-front-door-"));
    await seedEmbeddedDatabase(dataDir);
    const user = await runScript("admin.ts", ["create-user", "--email", EMAIL, "--password", PASSWORD], env());
    assert.equal(user.code, 0, user.stderr);
    // Listening on every address, so clients from 127.0.0.2 and 127.0.0.3 are told apart.
    server = await startServer({ ...env(), HOST: "0.0.0.0", RATE_LIMIT_UNKNOWN_KEYS_PER_MINUTE: String(UNKNOWN_KEY_LIMIT), RATE_LIMIT_API_PER_MINUTE: String(KEY_LIMIT) });
    port = Number(new URL(server.url).port);
    const created = await runScript("admin.ts", ["create-key", "--email", EMAIL], env());
    assert.equal(created.code, 0, created.stderr);
    key = created.stdout.trimEnd().split("\n").at(-1)!;
  });

  after(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A session cookie, signed in from `from` as a browser does (next-auth's CSRF token, then the credentials callback). */
  async function signIn(from: string): Promise<string> {
    const base = `http://127.0.0.1:${port}`;
    const csrf = await request(`${base}/api/auth/csrf`, { from });
    const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
    const cookie = (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
    const res = await request(`${base}/api/auth/callback/credentials`, {
      method: "POST",
      from,
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: base },
      body: new URLSearchParams({ csrfToken, email: EMAIL, password: PASSWORD, json: "true" }).toString(),
    });
    const session = (res.headers["set-cookie"] ?? []).find((c) => c.startsWith("next-auth.session-token="));
    assert.ok(session, `signed in (HTTP ${res.status})`);
    return session.split(";")[0];
  }

  test("one client's bad keys never refuse another client's key, session or anonymous request", async () => {
    const url = `http://127.0.0.1:${port}/api/v1/dictionary`;
    const cookie = await signIn("127.0.0.3");
    const statuses: number[] = [];
    for (let i = 0; i < UNKNOWN_KEY_LIMIT + 5; i++) {
      const res = await request(url, { from: "127.0.0.2", headers: { authorization: `Bearer vd_${"z".repeat(42)}${i % 10}` } });
      statuses.push(res.status);
    }
    assert.ok(statuses.includes(429), `the first client is refused after its bad keys: ${statuses.join(",")}`);
    const withKey = await request(url, { from: "127.0.0.3", headers: { authorization: `Bearer ${key}` } });
    assert.equal(withKey.status, 200, withKey.body);
    const withSession = await request(url, { from: "127.0.0.3", headers: { cookie } });
    assert.equal(withSession.status, 200, withSession.body);
    const anonymous = await request(url, { from: "127.0.0.3" });
    assert.equal(anonymous.status, 401, "the second client is told it lacks a key, not refused");
    // And the refused client is refused for its address, whatever key it sends next.
    assert.equal((await request(url, { from: "127.0.0.2", headers: { authorization: `Bearer ${key}` } })).status, 429);
  });

  test("a key over its limit this minute is refused at the front door, as the route refused it; other keys and the API description are not", async () => {
    const created = await runScript("admin.ts", ["create-key", "--email", EMAIL], env());
    assert.equal(created.code, 0, created.stderr);
    const busy = created.stdout.trimEnd().split("\n").at(-1)!;
    const url = `http://127.0.0.1:${port}/api/v1/tags`;
    const asBusy = { from: "127.0.0.4", headers: { authorization: `Bearer ${busy}` } };
    const statuses: number[] = [];
    for (let i = 0; i < KEY_LIMIT; i++) statuses.push((await request(url, asBusy)).status);
    assert.deepEqual(new Set(statuses), new Set([200]), "every request within the limit is answered");
    const byRoute = await request(url, asBusy);
    const atDoor = await request(`${url}?limit=5`, asBusy);
    for (const answer of [byRoute, atDoor]) {
      assertErrorShape({ ...answer, body: JSON.parse(answer.body) }, 429, "rate_limited");
      assert.equal(answer.headers["ratelimit-limit"], String(KEY_LIMIT));
      assert.equal(answer.headers["ratelimit-remaining"], "0");
      assert.ok(Number(answer.headers["retry-after"]) >= 1 && Number(answer.headers["retry-after"]) <= 60, `Retry-After: ${answer.headers["retry-after"]}`);
    }
    assert.equal((JSON.parse(atDoor.body) as { error: { message: string } }).error.message.split(" Try again")[0], (JSON.parse(byRoute.body) as { error: { message: string } }).error.message.split(" Try again")[0]);
    // The first refusal went through Next to the route; the second never reached Next.
    const logged = async (id: string | string[] | undefined) => {
      // The answer can arrive before the server's log line does.
      for (let tries = 0; ; tries++) {
        const line = server.output().split("\n").find((l) => l.includes(`"request_id":"${String(id)}"`) && l.includes('"msg":"request"'));
        if (line || tries === 50) return line ?? "";
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    assert.match(await logged(byRoute.headers["x-request-id"]), /"status":429/);
    assert.doesNotMatch(await logged(byRoute.headers["x-request-id"]), /front door/);
    assert.match(await logged(atDoor.headers["x-request-id"]), /"status":429.*"at":"front door".*"refused_this_window":1\b/);
    // A client still sending gets each next refusal a second later, and the log gets the 1st,
    // 10th, 100th… of them, not a line each.
    const started = performance.now();
    const more = await Promise.all(Array.from({ length: 10 }, () => request(url, asBusy)));
    const took = performance.now() - started;
    assert.deepEqual(new Set(more.map((answer) => answer.status)), new Set([429]));
    if (Number(atDoor.headers["retry-after"]) > 2) assert.ok(took >= 900, `held ${Math.round(took)} ms`);
    const tenth = more.map((answer) => answer.headers["x-request-id"]).filter(Boolean);
    const lines = await Promise.all(tenth.map(async (id) => (await logged(id)) || null));
    assert.equal(lines.filter((line) => line?.includes('"refused_this_window":10')).length, 1, "the 10th is logged");
    assert.equal(lines.filter(Boolean).length, 1, "the 2nd to the 9th and the 11th are not");
    // Another key of the same person, and the API description with the refused key, are answered.
    assert.equal((await request(url, { from: "127.0.0.4", headers: { authorization: `Bearer ${key}` } })).status, 200);
    assert.equal((await request(`http://127.0.0.1:${port}/api/v1/openapi.json`, asBusy)).status, 200);
  });

  test("what Node's parser refuses is answered in the API's error shape", async () => {
    const nonAscii = parseRaw(await raw(port, Buffer.concat([Buffer.from("GET /api/v1/dictionary/"), Buffer.from([0xc3, 0xa9, 0xff]), Buffer.from(" HTTP/1.1\r\nHost: x\r\n\r\n")])));
    assertErrorShape(nonAscii, 400, "malformed_request");
    const longUrl = parseRaw(await raw(port, Buffer.from(`GET /api/v1/dictionary?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`)));
    assertErrorShape(longUrl, 431, "request_header_fields_too_large");
    const garbage = parseRaw(await raw(port, Buffer.from("\x00\x01 not http at all\r\n\r\n", "latin1")));
    assertErrorShape(garbage, 400, "malformed_request");
  });

  test("a server action from another site, or with no Origin, is refused in the error shape (no key made)", async () => {
    const cookie = await signIn("127.0.0.5");
    const keys = async () => JSON.parse((await runScript("admin.ts", ["list-keys", "--email", EMAIL, "--json"], env())).stdout).length as number;
    const before = await keys();
    for (const origin of ["http://evil.example", "null", undefined]) {
      const res = await request(`http://127.0.0.1:${port}/keys`, {
        method: "POST",
        from: "127.0.0.5",
        headers: {
          cookie,
          "next-action": "0".repeat(42),
          "content-type": "text/plain;charset=UTF-8",
          ...(origin && { origin }),
        },
        body: JSON.stringify([{ name: "stolen", scopes: ["transcribe"] }]),
      });
      const body = JSON.parse(res.body) as { error?: { code?: string; request_id?: string } };
      assert.equal(res.status, 403, `Origin ${origin}: ${res.status} ${res.body.slice(0, 200)}`);
      assert.equal(body.error?.code, "cross_site_request");
      assert.equal(body.error?.request_id, res.headers["x-request-id"]);
    }
    assert.equal(await keys(), before, "no key was created");
  });

  test("an idle kept-alive connection stays open for 65 s, longer than clients keep theirs", async () => {
    // With Node's 5 s, a client reusing the connection as the server closed it got ECONNRESET.
    const answer = await request(`http://127.0.0.1:${port}/api/health`, { headers: { connection: "keep-alive" }, from: "127.0.0.1" });
    assert.equal(answer.headers["keep-alive"], "timeout=65");
  });

  // Issue 44: Next rebuilds the query before a route handler sees it, so `q=%FF` reached the search
  // as U+FFFD (200) and `%zz` as a literal; the front door refuses them on the URL as it arrived.
  test("a query string that is not percent-encoded UTF-8 is 400 invalid_encoding, before the key and on pages too", async () => {
    const base = `http://127.0.0.1:${port}`;
    for (const query of ["q=%FF", "q=caf%E9", "q=%C3%28", "q=%ED%A0%80", "q=%zz", "%FF=1"]) {
      for (const [where, headers] of [
        [`/api/v1/transcriptions?${query}`, { authorization: `Bearer ${key}` }],
        [`/api/v1/transcriptions?${query}`, {}],
        [`/transcripts?${query}`, {}],
      ] as [string, Record<string, string>][]) {
        const res = await request(`${base}${where}`, { from: "127.0.0.5", headers });
        assertErrorShape({ status: res.status, headers: res.headers, body: JSON.parse(res.body) }, 400, "invalid_encoding");
      }
    }
    const fine = await request(`${base}/api/v1/transcriptions?q=caf%C3%A9+%F0%9F%98%80`, { from: "127.0.0.5", headers: { authorization: `Bearer ${key}` } });
    assert.equal(fine.status, 200, fine.body);
  });

  test("TRACE and CONNECT get the API's 405", async () => {
    const trace = parseRaw(await raw(port, Buffer.from("TRACE /api/v1/dictionary HTTP/1.1\r\nHost: x\r\n\r\n")));
    assertErrorShape(trace, 405, "method_not_allowed");
    assert.match(trace.headers.allow, /GET/);
    const connect = parseRaw(await raw(port, Buffer.from("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")));
    assertErrorShape(connect, 405, "method_not_allowed");
  });

  test("the share target answers other methods in the API's 405 shape, with Allow: POST", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await request(`http://127.0.0.1:${port}/share-target`, { method, from: "127.0.0.6" });
      assertErrorShape({ status: res.status, headers: res.headers, body: JSON.parse(res.body) }, 405, "method_not_allowed");
      assert.equal(res.headers.allow, "POST", method);
    }
  });

  test("Next's own answers carry the request id: the trailing-slash redirect", async () => {
    const res = await request(`http://127.0.0.1:${port}/api/v1/dictionary/`, { from: "127.0.0.4", headers: { "x-request-id": "trailing-slash-01" } });
    assert.equal(res.status, 308);
    assert.equal(res.headers["x-request-id"], "trailing-slash-01");
    const fresh = await request(`http://127.0.0.1:${port}/api/v1/dictionary/`, { from: "127.0.0.4" });
    assert.match(String(fresh.headers["x-request-id"]), /^[0-9a-f-]{36}$/);
  });

  test("raw bytes in the request target never get a 5xx or a bare answer", async () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const failures: string[] = [];
    for (let i = 0; i < 60; i++) {
      const bytes = Buffer.from(Array.from({ length: 1 + Math.floor(random() * 12) }, () => Math.floor(random() * 256)));
      const target = Buffer.concat([Buffer.from(i % 2 ? "/api/v1/" : "/"), bytes]);
      const answer = await raw(port, Buffer.concat([Buffer.from("GET "), target, Buffer.from(" HTTP/1.1\r\nHost: x\r\n\r\n")]));
      if (!answer) continue; // a line break among the bytes can make a request the server waits to finish
      const { status, headers } = parseRaw(answer);
      if (status >= 500 || !headers["x-request-id"]) failures.push(`${target.toString("hex")} → ${answer.slice(0, 120)}`);
    }
    assert.deepEqual(failures, []);
  });
});

test("no file reaches into Next's build internals or patches Node's server", () => {
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (["node_modules", ".git", ".next"].includes(name) || name.startsWith(".next")) continue;
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.(ts|tsx|mjs|js)$/.test(name) && file !== import.meta.filename) {
        const text = readFileSync(file, "utf8");
        if (/http\.Server\.prototype|app-paths-manifest|\.userland\b|DIRECT_API/.test(text)) offenders.push(path.relative(ROOT, file));
      }
    }
  };
  for (const dir of ["app", "lib", "scripts", "bench", "instrumentation.ts", "proxy.ts"]) {
    const at = path.join(ROOT, dir);
    if (statSync(at).isDirectory()) walk(at);
    else if (/http\.Server\.prototype|app-paths-manifest|\.userland\b/.test(readFileSync(at, "utf8"))) offenders.push(dir);
  }
  assert.deepEqual(offenders, []);
});
