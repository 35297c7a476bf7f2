import assert from "node:assert/strict";
import http from "node:http";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { ROOT, seedEmbeddedDatabase, startServer, type RunningServer } from "../support/processes.ts";
import { ERROR_STATUS } from "@/lib/http/errors.ts";
import { buildOpenApiDocument } from "@/lib/api/openapi-document.ts";
import { HTTP_METHODS } from "@/lib/openapi/types.ts";

// What only the real server shows: response headers of every page, and the requests Next itself
// answers before any route handler runs (wrong and forbidden methods, malformed percent-encoding).
// Runs behind a pretend proxy (TRUST_PROXY=true) so HSTS and Secure cookies can be seen.

/** app/(app)/transcripts/[id]/page.tsx → /transcripts/x */
async function pagePaths(dir = "app"): Promise<string[]> {
  const entries = await readdir(path.join(ROOT, dir), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (e) => {
      if (e.isDirectory()) return pagePaths(path.join(dir, e.name));
      if (e.name !== "page.tsx") return [];
      const segments = dir.split(path.sep).slice(1).filter((s) => !/^\(.*\)$/.test(s));
      return ["/" + segments.map((s) => (s.startsWith("[") ? "x" : s)).join("/")];
    }),
  );
  return nested.flat();
}

// (TRACK and other unknown methods never get past Node's HTTP parser: it answers 400 itself.)
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"];

type RawResponse = { status: number; headers: http.IncomingHttpHeaders; text: string };

/** Any method, even TRACE, which fetch() refuses to send. */
function raw(url: string, method: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject).end();
  });
}

function assertErrorShape(status: number, header: (name: string) => string | null | undefined, text: string, where: string): string {
  const body = JSON.parse(text);
  assert.equal(ERROR_STATUS[body.error.code as keyof typeof ERROR_STATUS], status, where);
  assert.ok(body.error.message, where);
  assert.equal(body.error.request_id, header("x-request-id"), where);
  assert.equal(header("x-content-type-options"), "nosniff", where);
  return body.error.code;
}

describe("security headers and framework errors over HTTP", () => {
  let dataDir: string;
  let server: RunningServer;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "vd-security-"));
    await seedEmbeddedDatabase(dataDir);
    server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: "", TRUST_PROXY: "true" });
  });

  after(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const get = (p: string, init: RequestInit = {}) => fetch(`${server.url}${p}`, { redirect: "manual", ...init });

  test("every page: a nonce-based CSP on its scripts, and the other security headers", async () => {
    const pages = await pagePaths();
    assert.ok(pages.length >= 10, `found the pages: ${pages.join(" ")}`);
    const nonces = new Set<string>();
    for (const page of pages) {
      const res = await get(page);
      assert.ok(res.status < 500, `${page}: ${res.status}`);
      const csp = res.headers.get("content-security-policy") ?? "";
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      assert.ok(nonce, `${page}: CSP with a nonce: ${csp}`);
      nonces.add(nonce);
      for (const directive of ["frame-ancestors 'none'", "connect-src 'self'", "worker-src 'self' blob:", "object-src 'none'", "'strict-dynamic'", "'wasm-unsafe-eval'"]) {
        assert.ok(csp.includes(directive), `${page}: ${directive} in ${csp}`);
      }
      assert.ok(!csp.includes("'unsafe-eval'") && !/script-src[^;]*'unsafe-inline'/.test(csp), `${page}: no unsafe scripts`);
      assert.equal(res.headers.get("x-content-type-options"), "nosniff", page);
      assert.equal(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin", page);
      assert.equal(res.headers.get("permissions-policy"), "microphone=(self), camera=(), geolocation=()", page);
      assert.equal(res.headers.get("strict-transport-security"), null, `${page}: no HSTS over plain http`);
      if (res.status === 200) {
        const html = await res.text();
        const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
        assert.ok(scripts.length > 0, page);
        for (const tag of scripts) assert.ok(tag.includes(`nonce="${nonce}"`), `${page}: ${tag}`);
      }
    }
    assert.equal(nonces.size, pages.length, "a fresh nonce for every response");
  });

  test("the worker and service worker scripts get a policy that allows wasm but no inline script", async () => {
    for (const file of ["/sw.js", "/ffmpeg/audio-worker.js"]) {
      const res = await get(file);
      assert.equal(res.status, 200, file);
      const csp = res.headers.get("content-security-policy") ?? "";
      assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/, file);
      assert.equal(res.headers.get("x-content-type-options"), "nosniff", file);
    }
  });

  test("behind an https proxy: HSTS, upgrade-insecure-requests and Secure cookies", async () => {
    const https = { headers: { "x-forwarded-proto": "https" } };
    const page = await get("/sign-in", https);
    assert.equal(page.headers.get("strict-transport-security"), "max-age=31536000");
    assert.match(page.headers.get("content-security-policy") ?? "", /upgrade-insecure-requests/);
    const api = await get("/api/health", https);
    assert.equal(api.headers.get("strict-transport-security"), "max-age=31536000");
    const csrf = await get("/api/auth/csrf", https);
    const cookies = csrf.headers.getSetCookie();
    assert.ok(cookies.length > 0 && cookies.every((c) => /;\s*Secure/i.test(c)), cookies.join(" | "));
    const plain = await get("/api/auth/csrf");
    assert.ok(plain.headers.getSetCookie().every((c) => !/;\s*Secure/i.test(c)), "no Secure cookie over plain http");
  });

  test("API responses carry nosniff", async () => {
    for (const p of ["/api/health", "/api/v1/openapi.json", "/api/v1/dictionary", "/api/v1/no-such-thing"]) {
      assert.equal((await get(p)).headers.get("x-content-type-options"), "nosniff", p);
    }
  });

  test("every method on every operation's path: allowed ones reach the route, others get 405 with Allow", async (t) => {
    const counts = new Map<number, number>();
    for (const [template, item] of Object.entries(buildOpenApiDocument().paths)) {
      const p = template.replace(/\{\w+\}/g, "0190f0f0-0000-7000-8000-000000000000");
      const documented = HTTP_METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
      for (const method of METHODS) {
        const res = await raw(`${server.url}${p}`, method);
        const text = res.text;
        counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
        const where = `${method} ${p}: ${res.status} ${text.slice(0, 120)}`;
        assert.ok(res.status < 500, where);
        if (method === "OPTIONS") continue; // Next's own 204 with Allow
        if (documented.includes(method) || (method === "HEAD" && documented.includes("GET"))) {
          assert.notEqual(res.status, 405, where);
          continue;
        }
        assert.equal(res.status, 405, where);
        const allow = res.headers.allow ?? "";
        assert.ok(allow, `${where}: Allow`);
        if (method !== "TRACE") {
          for (const m of documented) assert.ok(allow.includes(m), `${where}: Allow ${allow} lacks ${m}`);
        }
        const header = (name: string) => res.headers[name] as string | undefined;
        if (method !== "HEAD") assert.equal(assertErrorShape(res.status, header, text, where), "method_not_allowed");
      }
    }
    const byStatus = [...counts.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
    t.diagnostic(`methods by status: ${byStatus.join(", ")}`);
  });

  test("malformed percent-encoding in a path segment: 400 in the error shape", async () => {
    const paths = Object.keys(buildOpenApiDocument().paths).map((template) =>
      template.includes("{") ? template.replace(/\{\w+\}/g, "%FF%FE") : `${template}/%FF%FE`,
    );
    for (const p of [...paths, "/%FF%FE", "/transcripts/%E0%A4%A", "/api/v1/content/items/%ED%A0%80"]) {
      const res = await get(p);
      const text = await res.text();
      assert.equal(res.status, 400, `${p}: ${res.status} ${text.slice(0, 120)}`);
      assert.equal(assertErrorShape(res.status, (n) => res.headers.get(n), text, p), "validation_failed");
    }
  });

  test("NUL in a path id is refused before it reaches the database", async () => {
    const res = await get("/api/v1/content/items/%00");
    const text = await res.text();
    assert.equal(res.status, 400, text);
    assert.equal(assertErrorShape(res.status, (n) => res.headers.get(n), text, "NUL id"), "validation_failed");
  });
});
