import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import type http from "node:http";
import { test } from "node:test";
import { apiPace, bearerOfApiRequest, createKeyTurns } from "@/lib/http/key-turns.ts";

// An API key's requests take turns at the front door (lib/http/key-turns.ts): `perKey` at once,
// the rest waiting in order, a full queue answered 429; each key its own turns; and, paced, no
// faster than the key's limit spread over its minute, beyond a burst.

/** A response whose connection closes when told (the answer sent, or the client gone). */
const response = () => new EventEmitter() as EventEmitter & http.ServerResponse;

test("a key's requests beyond its turns wait in order, and start as earlier ones end", () => {
  const turns = createKeyTurns({ perKey: 2, maxWaiting: 2 });
  const started: string[] = [];
  const res = Object.fromEntries(["a1", "a2", "a3", "a4", "a5", "b1"].map((name) => [name, response()]));
  const ask = (key: string, name: string) => turns(key, res[name], () => started.push(name));
  assert.equal(ask("key a", "a1"), undefined);
  assert.equal(ask("key a", "a2"), undefined);
  assert.equal(ask("key a", "a3"), undefined);
  assert.equal(ask("key a", "a4"), undefined);
  assert.deepEqual(started, ["a1", "a2"], "two at once; the next two wait");
  const full = ask("key a", "a5");
  assert.equal(full?.code, "rate_limited", "a full queue is refused at once");
  assert.equal(full?.status, 429);
  assert.equal(full?.options.headers?.["Retry-After"], "1");
  // Another key has turns of its own.
  assert.equal(ask("key b", "b1"), undefined);
  assert.deepEqual(started, ["a1", "a2", "b1"]);
  // The first answer is sent: the first waiting one starts.
  res.a1.emit("close");
  assert.deepEqual(started, ["a1", "a2", "b1", "a3"]);
  // A client that gives up while waiting leaves the queue: the next end starts no one.
  res.a4.emit("close");
  res.a2.emit("close");
  assert.deepEqual(started, ["a1", "a2", "b1", "a3"]);
  // Once all have ended, the key starts afresh with its two turns.
  res.a3.emit("close");
  const again = [response(), response()];
  for (const [i, r] of again.entries()) turns("key a", r, () => started.push(`again${i}`));
  assert.deepEqual(started.slice(-2), ["again0", "again1"]);
});

test("only Bearer requests to the API's keyed routes take turns, but a live recording's", () => {
  const req = (url: string, authorization?: string) => ({ url, headers: authorization ? { authorization } : {} }) as http.IncomingMessage;
  assert.equal(bearerOfApiRequest(req("/api/v1/tags?limit=5", "Bearer vd_abc")), "Bearer vd_abc");
  assert.equal(bearerOfApiRequest(req("/api/v1/openapi.json", "Bearer vd_abc")), undefined, "the API's description needs no key");
  assert.equal(bearerOfApiRequest(req("/api/v1/tags")), undefined, "a browser session's requests");
  assert.equal(bearerOfApiRequest(req("/api/v1/tags", "Basic eDp5")), undefined);
  assert.equal(bearerOfApiRequest(req("/record", "Bearer vd_abc")), undefined, "pages");
  assert.equal(bearerOfApiRequest(req("/api/v1/live-recordings/r1?offset=0", "Bearer vd_abc")), undefined, "live work goes first");
  assert.equal(bearerOfApiRequest(req("/api/v1/live-recordings/r1/finish", "Bearer vd_abc")), undefined);
});

test("a paced key's requests beyond its burst start one interval apart, in order; back on pace, it bursts again", async () => {
  // 100 a second: one every 10 ms, 3 at once beyond it; any number under way.
  const turns = createKeyTurns({ perKey: Infinity, maxWaiting: 10, pace: { perSecond: 100, burst: 3 } });
  const started: { name: string; at: number }[] = [];
  const t0 = performance.now();
  const ask = (name: string, key = "key a") => turns(key, response(), () => started.push({ name, at: performance.now() - t0 }));
  for (const name of ["a1", "a2", "a3", "a4", "a5"]) assert.equal(ask(name), undefined);
  ask("b1", "key b");
  assert.deepEqual(started.map((s) => s.name), ["a1", "a2", "a3", "b1"], "the burst, and another key's own");
  const until = async (n: number) => {
    for (let i = 0; i < 1000 && started.length < n; i++) await new Promise((r) => setTimeout(r, 5));
  };
  await until(6);
  assert.deepEqual(started.map((s) => s.name), ["a1", "a2", "a3", "b1", "a4", "a5"]);
  // One and two intervals after the burst, on the key's pace: a timer that fires late makes a4
  // late, not a5 (the pace counts from when each should have started, not from when it did).
  assert.ok(started[4].at >= 9, `a4 started at ${started[4].at} ms`);
  assert.ok(started[5].at >= 19, `a5 started at ${started[5].at} ms`);
  // Idle for longer than its burst takes to earn back: three at once again.
  await new Promise((r) => setTimeout(r, 60));
  for (const name of ["c1", "c2", "c3", "c4"]) ask(name);
  assert.deepEqual(started.slice(6).map((s) => s.name), ["c1", "c2", "c3"]);
  await until(10);
  assert.equal(started.at(-1)?.name, "c4");
});

test("a key's pace is its per-minute limit spread over the minute, with a burst of two seconds' worth, at least 40", () => {
  assert.deepEqual(apiPace(1200), { perSecond: 20, burst: 40 });
  assert.deepEqual(apiPace(6000), { perSecond: 100, burst: 200 });
  assert.deepEqual(apiPace(3), { perSecond: 0.05, burst: 40 }, "a small limit is refused before its pace holds anything");
  assert.equal(apiPace(0), undefined, "no limit, no pace");
});
