// Issue 60, item 1: a request without a key must not grow the server's memory without limit.
// /oauth/jwks with a new Host value each time kept one authorization server per value (RSS 208 MB →
// 2,734 MB after 48,811 host names). Names that are not this server's are refused; the names that
// are (loopback names and addresses, which a client may vary by port) share a bounded few.
import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { before, describe, test } from "node:test";
import { GET as oauthGet } from "@/app/oauth/[...path]/route.ts";
import { GET as serverMetadata } from "@/app/.well-known/oauth-authorization-server/route.ts";
import { setUpTestDatabase } from "../support/database.ts";

const database = setUpTestDatabase();
before(() => database.ready);

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const heapAfterGc = () => {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
};

const NO_PARAMS = { params: Promise.resolve({}) };
const jwks = (host: string) => oauthGet(new Request(`http://${host}/oauth/jwks`, { headers: { host } }), NO_PARAMS);

describe("the OAuth server under invented Host values", () => {
  test("a name that is not this server's is refused: 403 unknown_host in the error shape", async () => {
    for (const res of [await jwks("h1.example"), await serverMetadata(new Request("http://h2.example/.well-known/oauth-authorization-server", { headers: { host: "h2.example" } }), NO_PARAMS)]) {
      assert.equal(res.status, 403);
      const body = await res.json();
      assert.equal(body.error.code, "unknown_host");
      assert.match(body.error.message, /NEXTAUTH_URL/);
    }
    assert.equal((await jwks("localhost")).status, 200, "this server's own name is answered");
  });

  test("5,000 distinct Host values (names, and loopback addresses by port) leave the heap within 50 MB of its start", async () => {
    // Warm up: one provider made and answered, so the start counts what a running server holds.
    assert.equal((await jwks("127.0.0.1:1")).status, 200);
    const start = heapAfterGc();
    const statuses = new Map<number, number>();
    for (let i = 0; i < 5_000; i++) {
      const host = i % 2 ? `h${i}.example` : `127.0.0.1:${1024 + i}`;
      const res = await jwks(host);
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    assert.deepEqual(Object.fromEntries(statuses), { 200: 2_500, 403: 2_500 });
    const grown = (heapAfterGc() - start) / 2 ** 20;
    assert.ok(grown < 50, `the heap grew by ${grown.toFixed(1)} MB`);
  });
});
