import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { before, describe, test } from "node:test";
import { GET as listDictionary } from "@/app/api/v1/dictionary/route.ts";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { signUp } from "@/lib/accounts/sign-up.ts";
import { verifyCredentials } from "@/lib/auth/verify-credentials.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { createLimiter } from "@/lib/rate-limit/store.ts";
import { BatchedLimit } from "@/lib/rate-limit/batched-limit.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { withEnv } from "../support/env.ts";
import { createTestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";
import { jfkOpening } from "../support/audio.ts";

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
const database = setUpTestDatabase();
before(() => database.ready);

const PASSWORD = "correct horse battery staple";

/** The 429 a call was refused with (fails the test when it was not refused). */
async function refusal(attempt: Promise<unknown>): Promise<ApiError> {
  const err = await attempt.then(
    () => assert.fail("expected 429 rate_limited"),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ApiError && err.code === "rate_limited", String(err));
  assert.equal(err.status, 429);
  return err;
}
const retryAfter = (err: ApiError) => Number(err.options.headers?.["Retry-After"]);

describe("sign-in back-off", () => {
  for (const store of ["database", "memory"]) {
    const settings = { RATE_LIMIT_STORE: store, RATE_LIMIT_SIGNIN_FAILURES: "3", RATE_LIMIT_SIGNIN_BACKOFF_SECONDS: "1", RATE_LIMIT_SIGNIN_IP_FAILURES: "0" };
    test(`${store} store: locked after 3 wrong passwords, the right one too until the back-off passes; it doubles`, withEnv(settings, async () => {
      const user = await createTestUser();
      const wrong = { email: user.email, password: "wrong password!" };
      const right = { email: user.email, password: PASSWORD };
      for (let i = 0; i < 3; i++) assert.equal(await verifyCredentials(wrong), null);
      const locked = await refusal(verifyCredentials(right));
      assert.equal(retryAfter(locked), 1);
      assert.equal(locked.options.headers?.["RateLimit-Remaining"], "0");

      await sleep(retryAfter(locked) * 1000 + 100);
      assert.equal(await verifyCredentials(wrong), null);
      const longer = await refusal(verifyCredentials(right));
      assert.equal(retryAfter(longer), 2, "the second back-off is twice the first");

      await sleep(retryAfter(longer) * 1000 + 100);
      assert.equal((await verifyCredentials(right))?.id, user.id);
      assert.equal(await verifyCredentials(wrong), null, "a success forgives the failures");
      assert.equal((await verifyCredentials(right))?.id, user.id);
    }));
  }

  // Issue 44: 12 wrong passwords in one burst were checked 6 times, one at a time 5 times.
  for (const store of ["database", "memory"]) {
    const settings = { RATE_LIMIT_STORE: store, RATE_LIMIT_SIGNIN_FAILURES: "5", RATE_LIMIT_SIGNIN_BACKOFF_SECONDS: "60", RATE_LIMIT_SIGNIN_IP_FAILURES: "0" };
    test(`${store} store: 12 wrong passwords in a burst are checked as often as one at a time (5), and lock alike`, withEnv(settings, async () => {
      const wrong = (email: string) => verifyCredentials({ email, password: "wrong password!" });
      const checkedOf = (outcomes: PromiseSettledResult<unknown>[]) => {
        for (const o of outcomes) if (o.status === "rejected") assert.equal((o.reason as ApiError).code, "rate_limited");
        return outcomes.filter((o) => o.status === "fulfilled").length;
      };
      const steady = await createTestUser();
      const oneByOne: PromiseSettledResult<unknown>[] = [];
      for (let i = 0; i < 12; i++) oneByOne.push(...(await Promise.allSettled([wrong(steady.email)])));
      const burst = await createTestUser();
      const together = await Promise.allSettled(Array.from({ length: 12 }, () => wrong(burst.email)));
      assert.equal(checkedOf(oneByOne), 5, "one at a time");
      assert.equal(checkedOf(together), 5, "in a burst");
      const [locked, lockedToo] = [await refusal(verifyCredentials({ email: steady.email, password: PASSWORD })), await refusal(verifyCredentials({ email: burst.email, password: PASSWORD }))];
      assert.equal(retryAfter(lockedToo), retryAfter(locked), "the same back-off either way");
      assert.ok(retryAfter(locked) > 55 && retryAfter(locked) <= 60, `the first back-off: ${retryAfter(locked)} s`);
    }));
  }

  test("per address: failures on any accounts lock the address, not others", withEnv({ RATE_LIMIT_SIGNIN_IP_FAILURES: "2", RATE_LIMIT_SIGNIN_FAILURES: "100" }, async () => {
    const user = await createTestUser();
    for (const email of ["nobody-1@example.test", "nobody-2@example.test"]) {
      assert.equal(await verifyCredentials({ email, password: "guess number one" }, { ip: "198.51.100.7" }), null);
    }
    await refusal(verifyCredentials({ email: user.email, password: PASSWORD }, { ip: "198.51.100.7" }));
    assert.equal((await verifyCredentials({ email: user.email, password: PASSWORD }, { ip: "198.51.100.8" }))?.id, user.id);
  }));

  test("per address: only failures count; many people signing in from one address (an office) are never refused", withEnv({ RATE_LIMIT_SIGNIN_IP_FAILURES: "3", RATE_LIMIT_SIGNIN_FAILURES: "100" }, async () => {
    const users = await Promise.all(Array.from({ length: 3 }, () => createTestUser()));
    const office = { ip: "198.51.100.20" };
    // More sign-ins than the address's free failures, one after another, then at the same moment.
    for (let round = 0; round < 2; round++) {
      for (const user of users) assert.equal((await verifyCredentials({ email: user.email, password: PASSWORD }, office))?.id, user.id);
    }
    const together = await Promise.all(users.map((user) => verifyCredentials({ email: user.email, password: PASSWORD }, office)));
    assert.deepEqual(together.map((u) => u?.id), users.map((u) => u.id), "none refused: none failed");
    // Failures still count: three, and the address backs off.
    for (let i = 0; i < 3; i++) assert.equal(await verifyCredentials({ email: `nobody-${i}@example.test`, password: "a guess" }, office), null);
    await refusal(verifyCredentials({ email: users[0].email, password: PASSWORD }, office));
  }));
});

test("sign-up: limited per address", withEnv({ RATE_LIMIT_SIGNUPS_PER_HOUR: "2", SIGNUP: "open" }, async () => {
  const account = (n: number) => ({ email: `signup-${n}-${Date.now()}@example.test`, password: PASSWORD });
  await signUp({ input: account(1), ip: "192.0.2.10" });
  await signUp({ input: account(2), ip: "192.0.2.10" });
  const err = await refusal(signUp({ input: account(3), ip: "192.0.2.10" }));
  assert.ok(retryAfter(err) > 0);
  await signUp({ input: account(4), ip: "192.0.2.11" });
}));

describe("the API", () => {
  const list = (headers: Record<string, string>) => call(listDictionary, { path: "/api/v1/dictionary", headers });

  test("per key: RateLimit-* on every answer, then 429 with Retry-After; other keys go on", withEnv({ RATE_LIMIT_API_PER_MINUTE: "3" }, async () => {
    const user = await createTestUser();
    for (const remaining of ["2", "1", "0"]) {
      const res = await list({ authorization: `Bearer ${user.key}` });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("ratelimit-limit"), "3");
      assert.equal(res.headers.get("ratelimit-remaining"), remaining);
      assert.ok(Number(res.headers.get("ratelimit-reset")) > 0);
    }
    const refused = await list({ authorization: `Bearer ${user.key}` });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, "rate_limited");
    assert.ok(refused.body.error.request_id);
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    assert.equal(refused.headers.get("ratelimit-limit"), "3");
    assert.equal(refused.headers.get("ratelimit-remaining"), "0");
    assert.equal(refused.headers.get("ratelimit-reset"), refused.headers.get("retry-after"));
    const other = await createTestUser();
    assert.equal((await list({ authorization: `Bearer ${other.key}` })).status, 200);
  }));

  test("unknown keys per address: 401s, then 429 for that address only", withEnv({ RATE_LIMIT_UNKNOWN_KEYS_PER_MINUTE: "2", TRUST_PROXY: "true" }, async () => {
    const user = await createTestUser();
    const from = (ip: string, key: string) => list({ authorization: `Bearer ${key}`, "x-forwarded-for": `10.0.0.1, ${ip}` });
    const unknown = `vd_${"A".repeat(43)}`;
    assert.equal((await from("203.0.113.7", unknown)).status, 401);
    assert.equal((await from("203.0.113.7", unknown)).status, 401);
    const refused = await from("203.0.113.7", unknown);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error.code, "rate_limited");
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    // Refused before the lookup, so the answer says nothing about the key.
    assert.equal((await from("203.0.113.7", user.key)).status, 429);
    assert.equal((await from("203.0.113.8", user.key)).status, 200);
  }));
});

test("uploads draw on an hourly budget of audio seconds; a replay costs nothing", withEnv({ RATE_LIMIT_AUDIO_SECONDS_PER_HOUR: "5" }, async () => {
  const user = await createTestUser();
  const speech = await jfkOpening(); // the first 3 s of jfk.wav
  const upload = (idempotencyKey: string) => {
    const body = new FormData();
    body.set("audio", new Blob([new Uint8Array(speech)]), "opening.wav");
    return call(transcribe, { method: "POST", path: "/transcribe", key: user.key, body, headers: { "idempotency-key": idempotencyKey } });
  };
  const first = await upload("budget-1");
  assert.equal(first.status, 200, first.text);
  const second = await upload("budget-2"); // 3 s + 3 s > 5 s
  assert.equal(second.status, 429, second.text);
  assert.equal(second.body.error.code, "rate_limited");
  assert.match(second.body.error.message, /seconds of audio/);
  assert.ok(Number(second.headers.get("retry-after")) > 0);
  assert.equal(second.headers.get("ratelimit-limit"), "5");
  const replay = await upload("budget-1");
  assert.equal(replay.status, 200);
  assert.equal(replay.headers.get("idempotent-replayed"), "true");
}));

test("two limiters on the database (as in two app processes) share one count", async () => {
  const options = { name: `shared-${Date.now()}`, points: 3, durationSeconds: 60 };
  const one = createLimiter(options, "database");
  const two = createLimiter(options, "database");
  await one.consume("k");
  await two.consume("k");
  assert.equal((await one.consume("k")).remainingPoints, 0);
  await assert.rejects(two.consume("k"), (res: { remainingPoints: number }) => res.remainingPoints === 0);
  assert.equal((await two.get("k"))?.consumedPoints, 4);
});

describe("the per-key count, kept in each process and sent to the database in batches", () => {
  const options = () => ({ name: `batched-${Date.now()}-${Math.random()}`, points: 5, durationSeconds: 60 });

  test("a burst in one process gets exactly the limit, the first requests of the window included", async () => {
    const limit = new BatchedLimit(createLimiter(options(), "database"), 5);
    const taken = await Promise.all(Array.from({ length: 12 }, () => limit.take("k")));
    assert.equal(taken.filter((t) => t.allowed).length, 5);
    assert.deepEqual(taken.filter((t) => t.allowed).map((t) => t.remaining).sort(), [0, 1, 2, 3, 4]);
    assert.ok(taken.every((t) => t.msBeforeNext > 0 && t.msBeforeNext <= 60_000));
  });

  test("another process sees this one's requests once they are sent (within a second), and the store holds them all", async () => {
    const settings = options();
    const one = new BatchedLimit(createLimiter(settings, "database"), 5);
    const two = new BatchedLimit(createLimiter(settings, "database"), 5);
    const store = createLimiter(settings, "database");
    assert.equal((await one.take("k")).remaining, 4); // read and added at once: the window's first
    assert.equal((await one.take("k")).remaining, 3); // counted here, not yet sent
    assert.equal((await store.get("k"))?.consumedPoints, 1);
    await sleep(1100);
    assert.equal((await one.take("k")).remaining, 2); // the third; this one sends all unsent (2)
    for (let i = 0; i < 50 && (await store.get("k"))?.consumedPoints !== 3; i++) await sleep(20);
    assert.equal((await store.get("k"))?.consumedPoints, 3);
    const first = await two.take("k");
    assert.equal(first.remaining, 1, "the other process's three are counted");
    assert.equal((await two.take("k")).remaining, 0);
    assert.equal((await two.take("k")).allowed, false);
  });
});

test("OpenAPI: every keyed operation documents 429 rate_limited with Retry-After and RateLimit-*", async () => {
  const { buildOpenApiDocument } = await import("@/lib/api/openapi-document.ts");
  const doc = buildOpenApiDocument();
  let keyed = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, { security: unknown[]; responses: Record<string, any> }>)) {
      if (op.security.length === 0) continue;
      keyed += 1;
      const limited = op.responses["429"];
      assert.ok(limited, `${method} ${path} has no 429`);
      assert.ok(limited["x-error-codes"].some((c: { code: string }) => c.code === "rate_limited"));
      for (const name of ["Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]) {
        assert.ok(limited.headers[name], `${method} ${path}: 429 lacks ${name}`);
        assert.ok(doc.components.headers[name]);
      }
    }
  }
  assert.ok(keyed > 10);
});
