import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import * as mcpRoute from "@/app/mcp/route.ts";
import * as oauthRoute from "@/app/oauth/[...path]/route.ts";
import { GET as authorizationServer } from "@/app/.well-known/oauth-authorization-server/route.ts";
import { GET as openidConfiguration } from "@/app/.well-known/openid-configuration/route.ts";
import { GET as protectedResource } from "@/app/.well-known/oauth-protected-resource/route.ts";
import type { RouteHandler } from "@/lib/api/with-request.ts";
import { createFrontDoor } from "@/lib/http/front-door.ts";
import { setUpTestDatabase } from "@/tests/support/database.ts";
import { createTestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";
import { answerWith } from "@/tests/support/node-bridge.ts";

// Issue 60, item 5: a malformed Host (`Host: a b`, `…#x`, `…?x`, `;`, none, two) answered 500 or
// 503 with an empty body on /oauth/*, /.well-known/* and /mcp. The front door (lib/http/front-door.ts,
// before Next: every route) answers 400 invalid_host in the API's error shape; the public origin
// refuses it too, for a route reached without the front door. Raw sockets send what fetch cannot,
// to the real front door with the route handlers behind it in place of Next.

process.env.DATA_DIR = await mkdtemp(path.join(tmpdir(), "vd-host-header-"));
setUpTestDatabase();

const ROUTES: Record<string, Partial<Record<string, RouteHandler>>> = {
  "/mcp": mcpRoute as Record<string, RouteHandler>,
  "/.well-known/oauth-authorization-server": { GET: authorizationServer },
  "/.well-known/openid-configuration": { GET: openidConfiguration },
  "/.well-known/oauth-protected-resource": { GET: protectedResource },
};

let reached = 0;
/** What Next would do behind the front door: the route handler of the path. */
const behindTheDoor = async (incoming: http.IncomingMessage, outgoing: http.ServerResponse) => {
  reached += 1;
  const pathname = new URL(incoming.url ?? "/", "http://x").pathname;
  const handler = pathname.startsWith("/oauth/") ? (oauthRoute as Record<string, RouteHandler>)[incoming.method!] : ROUTES[pathname]?.[incoming.method!];
  if (!handler) return void outgoing.writeHead(404).end();
  await answerWith(handler, incoming, outgoing);
};

function listen(trustProxy: boolean): Promise<{ server: http.Server; port: number }> {
  const server = createFrontDoor(behindTheDoor, { trustProxy, onError: () => undefined });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, port: (server.address() as net.AddressInfo).port })));
}

function dechunk(text: string): string {
  let out = "";
  for (let at = 0; ; ) {
    const end = text.indexOf("\r\n", at);
    const size = parseInt(text.slice(at, end), 16);
    if (!size) return out;
    out += text.slice(end + 2, end + 2 + size);
    at = end + 2 + size + 2;
  }
}

/** Bytes written as they are; the answer read until the server closes or its body has arrived. */
function raw(port: number, text: string): Promise<{ status: number; headers: Record<string, string>; body: any; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(Buffer.from(text, "latin1")));
    let answer = "";
    socket.setEncoding("latin1");
    socket.setTimeout(5000, () => socket.destroy());
    const done = () => {
      const at = answer.indexOf("\r\n\r\n");
      const lines = answer.slice(0, at).split("\r\n");
      const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      const bodyText = /^transfer-encoding: chunked$/im.test(answer.slice(0, at)) ? dechunk(answer.slice(at + 4)) : answer.slice(at + 4);
      let body: unknown;
      try {
        body = JSON.parse(bodyText);
      } catch {
        body = undefined;
      }
      resolve({ status: Number(lines[0].split(" ")[1]), headers, body, text: answer });
    };
    socket.on("data", (d) => {
      answer += d;
      const at = answer.indexOf("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(answer.slice(0, at))?.[1];
      if (at > 0 && length && answer.length >= at + 4 + Number(length)) socket.destroy();
    });
    socket.on("close", done);
    socket.on("error", reject);
  });
}

const request = (method: string, target: string, headerLines: string[], body = "") =>
  `${method} ${target} HTTP/1.1\r\n${[...headerLines, ...(body ? ["Content-Type: application/json", `Content-Length: ${body.length}`] : [])].map((l) => `${l}\r\n`).join("")}\r\n${body}`;

const TARGETS: [string, string, string?][] = [
  ["POST", "/mcp", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })],
  ["GET", "/mcp"],
  ["POST", "/oauth/token", "{}"],
  ["GET", "/oauth/jwks"],
  ["GET", "/oauth/authorize?client_id=x"],
  ["GET", "/.well-known/oauth-authorization-server"],
  ["GET", "/.well-known/openid-configuration"],
  ["GET", "/.well-known/oauth-protected-resource"],
];

const MALFORMED: [string, string[]][] = [
  ["Host: a b", ["Host: a b"]],
  ["Host: localhost#x", ["Host: localhost#x"]],
  ["Host: localhost?x", ["Host: localhost?x"]],
  ["Host: ;", ["Host: ;"]],
  ["Host: localhost;", ["Host: localhost;"]],
  ["Host: (empty)", ["Host:"]],
  ["Host: localhost/x", ["Host: localhost/x"]],
  ["Host: user@localhost", ["Host: user@localhost"]],
  ["Host: localhost:99999", ["Host: localhost:99999"]],
  ["Host: [::1", ["Host: [::1"]],
  ["Host: local\\thost", ["Host: local\thost"]],
  ["no Host", []],
  ["two Hosts", ["Host: localhost", "Host: evil.example"]],
];

function assertInvalidHost(answer: { status: number; headers: Record<string, string>; body: any; text: string }, where: string) {
  assert.equal(answer.status, 400, `${where}: ${answer.text.slice(0, 300)}`);
  assert.match(answer.headers["content-type"] ?? "", /^application\/json/, where);
  assert.equal(answer.body?.error?.code, "invalid_host", where);
  assert.match(answer.body.error.message, /Host header must name this server/, where);
  assert.equal(answer.body.error.request_id, answer.headers["x-request-id"], where);
}

describe("a malformed Host at the front door", () => {
  let door: { server: http.Server; port: number };
  let behindProxy: { server: http.Server; port: number };
  before(async () => {
    door = await listen(false);
    behindProxy = await listen(true);
  });
  after(() => {
    door?.server.close();
    behindProxy?.server.close();
  });

  test("400 invalid_host in the error shape on /mcp, /oauth/* and /.well-known/*, before any route", async () => {
    const before = reached;
    for (const [name, lines] of MALFORMED) {
      for (const [method, target, body] of TARGETS) {
        assertInvalidHost(await raw(door.port, request(method, target, [...lines, "Connection: close"], body)), `${name} ${method} ${target}`);
      }
    }
    assert.equal(reached, before, "no route saw one");
  });

  test("`Host;` (no colon) is refused by Node's parser: 400 malformed_request, in the error shape too", async () => {
    const answer = await raw(door.port, request("GET", "/mcp", ["Host;", "Connection: close"]));
    assert.equal(answer.status, 400);
    assert.equal(answer.body?.error?.code, "malformed_request");
    assert.equal(answer.body.error.request_id, answer.headers["x-request-id"]);
  });

  test("behind a proxy of ours (TRUST_PROXY), a malformed X-Forwarded-Host is refused alike", async () => {
    for (const forwarded of ["a b", "localhost#x", "localhost?x", ";"]) {
      const answer = await raw(behindProxy.port, request("GET", "/.well-known/oauth-protected-resource", ["Host: localhost", `X-Forwarded-Host: ${forwarded}`, "Connection: close"]));
      assert.equal(answer.status, 400, forwarded);
      assert.equal(answer.body?.error?.code, "invalid_host", forwarded);
      assert.match(answer.body.error.message, /X-Forwarded-Host/);
    }
  });

  test("well-formed hosts go through: names, ports, IPv4, IPv6, underscores; and an MCP call answers", async () => {
    for (const host of ["localhost", "localhost:3000", "127.0.0.1", "[::1]:8080", "notes.example.com", "voice_draft.internal:80", "localhost."]) {
      const answer = await raw(door.port, request("GET", "/.well-known/oauth-protected-resource", [`Host: ${host}`, "Connection: close"]));
      assert.equal(answer.status, 200, `${host}: ${answer.text.slice(0, 300)}`);
      assert.equal(answer.body.resource, `http://${host}/mcp`, host);
    }
    const user = await createTestUser();
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const answer = await raw(door.port, request("POST", "/mcp", [`Host: 127.0.0.1:${door.port}`, `Authorization: Bearer ${user.key}`, "Accept: application/json, text/event-stream", "Connection: close"], body));
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    assert.ok(answer.body.result.tools.length > 0);
  });
});

describe("a malformed Host that reaches a route without the front door", () => {
  const handlers: [string, string, RouteHandler][] = [
    ["POST", "/mcp", mcpRoute.POST],
    ["GET", "/oauth/jwks", oauthRoute.GET],
    ["POST", "/oauth/register", oauthRoute.POST],
    ["GET", "/.well-known/oauth-authorization-server", authorizationServer],
    ["GET", "/.well-known/openid-configuration", openidConfiguration],
    ["GET", "/.well-known/oauth-protected-resource", protectedResource],
  ];

  test("the public origin refuses it: 400 invalid_host, not a 500 or an empty 503", async () => {
    for (const host of ["a b", "localhost#x", "localhost?x", ";", "localhost/x"]) {
      for (const [method, pathname, handler] of handlers) {
        const res = await call(handler, { method, path: pathname, headers: { host, accept: "application/json, text/event-stream" }, json: method === "POST" ? {} : undefined });
        assert.equal(res.status, 400, `${host} ${method} ${pathname}: ${res.text}`);
        assert.equal(res.body?.error?.code, "invalid_host", `${host} ${pathname}`);
        assert.equal(res.body.error.request_id, res.headers.get("x-request-id"));
      }
    }
  });
});
