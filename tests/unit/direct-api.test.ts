import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { gunzipSync } from "node:zlib";
import type { RouteHandler } from "@/lib/api/with-request.ts";
import { answer, apiRoutesOfBuild } from "@/lib/http/direct-api.ts";
import { json } from "@/lib/http/respond.ts";

// lib/http/direct-api.ts over a real node:http server and socket: what the production server does
// between the connection and a route handler when it answers the API without Next's router.

let handler: RouteHandler;
let server: http.Server;
let base: string;

before(async () => {
  server = http.createServer((req, res) => void answer(handler, req, res, { url: `http://${req.headers.host}${req.url}`, params: { id: "p1" } }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A raw request: node:http does not decompress, so the bytes on the wire can be checked. */
function get(pathname: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${pathname}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

test("the handler gets the method, URL, headers, params and the streamed request body", async () => {
  handler = async (req, ctx) =>
    json({ method: req.method, url: req.url, auth: req.headers.get("authorization"), params: await ctx.params, body: await req.text() });
  const res = await fetch(`${base}/api/v1/things/p1?x=1`, { method: "POST", headers: { authorization: "Bearer k" }, body: "hello" });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { method: "POST", url: `${base}/api/v1/things/p1?x=1`, auth: "Bearer k", params: { id: "p1" }, body: "hello" });
});

test("status, headers and every Set-Cookie reach the client", async () => {
  handler = async () => {
    const res = new Response(null, { status: 204, headers: { "x-a": "1" } });
    res.headers.append("set-cookie", "a=1; Path=/");
    res.headers.append("set-cookie", "b=2; Path=/");
    return res;
  };
  const res = await get("/");
  assert.equal(res.status, 204);
  assert.equal(res.headers["x-a"], "1");
  assert.deepEqual(res.headers["set-cookie"], ["a=1; Path=/", "b=2; Path=/"]);
});

test("a streamed answer leaves piece by piece: the first event arrives before the stream ends", { timeout: 10_000 }, async () => {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  handler = async () =>
    new Response(
      new ReadableStream({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("data: first\n\n"));
          await finished;
          controller.enqueue(new TextEncoder().encode("data: last\n\n"));
          controller.close();
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  const res = await fetch(`${base}/`, { headers: { "accept-encoding": "gzip" } });
  assert.equal(res.headers.get("content-encoding"), null, "event streams are never compressed");
  const reader = res.body!.getReader();
  const first = await reader.read();
  assert.equal(new TextDecoder().decode(first.value), "data: first\n\n");
  finish();
  let rest = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
  assert.equal(rest, "data: last\n\n");
});

test("a client that leaves aborts the handler's request signal", { timeout: 10_000 }, async () => {
  let aborted!: () => void;
  const sawAbort = new Promise<void>((resolve) => (aborted = resolve));
  handler = (req) =>
    new Promise((resolve) => {
      req.signal.addEventListener("abort", () => {
        aborted();
        resolve(new Response("too late"));
      });
    });
  const request = http.get(`${base}/`);
  request.on("error", () => {});
  await new Promise((r) => setTimeout(r, 100));
  request.destroy();
  await sawAbort;
});

test("gzip for clients that accept it, on JSON of 1 KB or more; small answers and other clients get it plain", async () => {
  const entries = Array.from({ length: 50 }, (_, i) => ({ misspelling: `word ${i}`, correct_spelling: `Word${i}` }));
  handler = async () => json({ entries });
  const zipped = await get("/", { "accept-encoding": "gzip, deflate, br" });
  assert.equal(zipped.headers["content-encoding"], "gzip");
  assert.match(String(zipped.headers.vary), /Accept-Encoding/);
  assert.equal(zipped.headers["content-length"], undefined);
  assert.deepEqual(JSON.parse(gunzipSync(zipped.body).toString()), { entries });
  const plain = await get("/");
  assert.equal(plain.headers["content-encoding"], undefined);
  assert.equal(Number(plain.headers["content-length"]), plain.body.length);
  handler = async () => json({ ok: true });
  const small = await get("/", { "accept-encoding": "gzip" });
  assert.equal(small.headers["content-encoding"], undefined);
  assert.deepEqual(JSON.parse(small.body.toString()), { ok: true });
});

test("a handler that throws is answered 500 in the API's error shape, with a request id", async () => {
  handler = async () => {
    throw new Error("boom");
  };
  const res = await get("/", { "x-request-id": "unit-test-0001" });
  assert.equal(res.status, 500);
  assert.equal(res.headers["x-request-id"], "unit-test-0001");
  assert.deepEqual(JSON.parse(res.body.toString()).error.code, "internal_error");
});

test("the routes of a build: API route handlers only, static paths before dynamic ones, catch-alls left to Next", () => {
  const distDir = mkdtempSync(path.join(tmpdir(), "vd-direct-api-"));
  try {
    mkdirSync(path.join(distDir, "server"));
    const manifest = {
      "/api/v1/items/[id]/route": "app/api/v1/items/[id]/route.js",
      "/api/v1/items/export/route": "app/api/v1/items/export/route.js",
      "/api/[...path]/route": "app/api/[...path]/route.js",
      "/api/auth/[...nextauth]/route": "app/api/auth/[...nextauth]/route.js",
      "/transcribe/route": "app/transcribe/route.js",
      "/manifest.webmanifest/route": "app/manifest.webmanifest/route.js",
      "/(app)/record/page": "app/(app)/record/page.js",
    };
    writeFileSync(path.join(distDir, "server", "app-paths-manifest.json"), JSON.stringify(manifest));
    const routes = apiRoutesOfBuild(distDir);
    assert.deepEqual(
      routes.map((r) => [r.pathname, r.names]),
      [
        ["/api/v1/items/export", []],
        ["/transcribe", []],
        ["/api/v1/items/[id]", ["id"]],
      ],
    );
    const dynamic = routes[2];
    assert.ok(dynamic.pattern.test("/api/v1/items/abc"));
    assert.ok(!dynamic.pattern.test("/api/v1/items/abc/more"));
    assert.equal(dynamic.entry, path.join(distDir, "server", "app/api/v1/items/[id]/route.js"));
    assert.deepEqual(apiRoutesOfBuild(path.join(distDir, "missing")), [], "no build, no direct routes");
  } finally {
    rmSync(distDir, { recursive: true, force: true });
  }
});
