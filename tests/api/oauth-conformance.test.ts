import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { GET as serverMetadata } from "@/app/.well-known/oauth-authorization-server/route.ts";
import { GET as oauthGet, POST as oauthPost } from "@/app/oauth/[...path]/route.ts";
import type { RouteHandler } from "@/lib/api/with-request.ts";
import { answerConsentRequest } from "@/lib/oauth/consent.ts";
import { setUpTestDatabase, testDbKind } from "@/tests/support/database.ts";
import { createTestUser } from "@/tests/support/factories.ts";
import { answerWith } from "@/tests/support/node-bridge.ts";
import { NO_NEWER_NODE, newerNode } from "@/tests/support/newer-node.ts";

// The MCP conformance suite's `authorization` command against this site's OAuth server behind
// real HTTP, at the 2026-07-28 revision: all its scenarios, two (the metadata, with CIMD support
// said, and a whole authorization-code grant with PKCE and no scope, iss checked, to a token for /mcp). The suite prints the
// authorization URL for a person to open; this test is that person: it follows the URL, answers
// the consent page as a signed-in user would, and lets the browser land on the suite's callback.

process.env.DATA_DIR = await mkdtemp(path.join(tmpdir(), "vd-oauth-conformance-"));
setUpTestDatabase();

const CLI = "node_modules/@modelcontextprotocol/conformance/dist/index.js";
const node = newerNode();

type Check = { id: string; status: string; errorMessage?: string };

/** A port nothing listens on now, for the suite's callback server. */
async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A browser over real HTTP: follows this site's redirects with its cookies; stops at the consent page or at another origin. */
async function browse(start: string, origin: string, jar: Map<string, string>): Promise<URL> {
  let next = new URL(start);
  for (let hop = 0; hop < 10; hop++) {
    if (next.origin !== origin || next.pathname.startsWith("/oauth/consent/")) return next;
    const res = await fetch(next, { redirect: "manual", headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(";")[0];
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    const location = res.headers.get("location");
    assert.ok(location, `${next.href} answered ${res.status} without a redirect: ${await res.text()}`);
    next = new URL(location, next);
  }
  throw new Error("too many redirects");
}

/** Runs the suite's authorization scenarios; `whileRunning` sees its output as it comes. Resolves with every check. */
async function runSuite(args: string[], whileRunning: (text: string) => void): Promise<{ checks: Check[]; output: string }> {
  const results = await mkdtemp(path.join(tmpdir(), "vd-oauth-conformance-results-"));
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(node!, [CLI, "authorization", ...args, "--spec-version", "2026-07-28", "-o", results], { stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    const timer = setTimeout(() => child.kill(), 60_000);
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      whileRunning(text);
    });
    child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString()));
    child.on("error", reject);
    child.on("close", () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
  // Each scenario's checks are written to <results>/<scenario>-<time>/checks.json.
  const checks: Check[] = [];
  for (const dir of await readdir(results)) checks.push(...(JSON.parse(await readFile(path.join(results, dir, "checks.json"), "utf8")) as Check[]));
  return { checks, output };
}

const skip = !node ? NO_NEWER_NODE : testDbKind === "postgres" ? "the protocol does not depend on the database; runs in the PGlite pass" : false;

describe("the MCP conformance suite's authorization scenarios", { skip }, () => {
  let server: http.Server;
  let origin: string;
  before(async () => {
    server = http.createServer((incoming, outgoing) => {
      const pathname = new URL(incoming.url ?? "/", "http://x").pathname;
      let handler: RouteHandler | undefined;
      if (pathname === "/.well-known/oauth-authorization-server") handler = serverMetadata;
      else if (pathname.startsWith("/oauth/")) handler = incoming.method === "GET" ? oauthGet : oauthPost;
      if (!handler) return void outgoing.writeHead(404).end();
      answerWith(handler, incoming, outgoing).catch(() => outgoing.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  // The grant reads what the metadata scenario found, so the two run together.
  test("authorization-server-metadata-endpoint, then authorization-code-grant: PKCE, consent, iss, a token for /mcp", async () => {
    const user = await createTestUser();
    const port = await freePort();
    const registered = await fetch(`${origin}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Conformance", redirect_uris: [`http://127.0.0.1:${port}/callback`], token_endpoint_auth_method: "none", grant_types: ["authorization_code"], response_types: ["code"] }),
    });
    assert.equal(registered.status, 201, await registered.clone().text());
    const { client_id } = (await registered.json()) as { client_id: string };

    let person: Promise<void> | undefined;
    const { checks, output } = await runSuite(["--url", origin, "--client-id", client_id, "--resource", `${origin}/mcp`, "-p", String(port)], (text) => {
      const url = /^(http:\/\/localhost:\d+\/oauth\/authorize\?\S+)$/m.exec(text)?.[1];
      if (!url || person) return;
      person = (async () => {
        const jar = new Map<string, string>();
        const atConsent = await browse(url, origin, jar);
        assert.match(atConsent.pathname, /^\/oauth\/consent\//);
        const next = await answerConsentRequest({ issuer: origin, uid: atConsent.pathname.split("/").pop()!, cookieUid: jar.get("_interaction"), userId: user.id, allow: true });
        const callback = await browse(new URL(next, origin).href, origin, jar);
        assert.equal(callback.searchParams.get("iss"), origin);
        await fetch(callback); // the browser lands on the suite's callback server
      })();
    });
    await person;
    assert.ok(person, `the suite printed no authorization URL:\n${output}`);
    assert.deepEqual(checks.map((c) => c.id).sort(), ["authorization-code-grant", "authorization-server-metadata", "authorization-server-metadata-cimd"], output);
    assert.ok(checks.every((c) => c.status === "SUCCESS"), output);
  });
});
