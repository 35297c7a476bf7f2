import { test } from "node:test";
import assert from "node:assert/strict";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { createEmptyDatabase, setUpTestDatabase } from "@/tests/support/database.ts";
import { withEnv } from "@/tests/support/env.ts";
import { createTestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";
import { db } from "@/lib/db/client.ts";
import { MIGRATIONS_DIR, migrateDatabase } from "@/lib/db/migrate.ts";
import { signUp } from "@/lib/accounts/sign-up.ts";
import { findOwner } from "@/lib/accounts/find-owner.ts";
import { createSession } from "@/lib/auth/sessions.ts";
import { ApiError, ERROR_STATUS } from "@/lib/http/errors.ts";
import { POST as invite } from "@/app/api/v1/invitations/route.ts";

// One file, one new install: the first test makes its first account (tests run in order in a file).
setUpTestDatabase();

const PASSWORD = "correct horse battery staple";
let n = 0;
const person = () => ({ email: `person-${++n}-${Date.now()}@example.test`, password: PASSWORD });
const ip = () => `192.0.2.${n % 250}`;

async function refusal(work: Promise<unknown>): Promise<ApiError> {
  const err = await work.then(
    () => assert.fail("expected a refusal"),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ApiError, String(err));
  return err;
}

const invitationOf = async (userId: string) => {
  const { sessionToken } = await createSession({ userId });
  return call(invite, { method: "POST", path: "/api/v1/invitations", headers: { cookie: `next-auth.session-token=${sessionToken}`, "sec-fetch-site": "same-origin", host: "notes.example.com" } });
};
const tokenOf = (url: string) => new URL(url).searchParams.get("invitation") ?? "";

let ownerId = "";

test("the first account made on a new install is its owner, without an invitation", async () => {
  assert.equal(await findOwner(), null);
  const owner = await signUp({ input: person(), ip: ip() });
  assert.equal(owner.isOwner, true);
  assert.equal((await findOwner())?.id, owner.id);
  ownerId = owner.id;
  // Accounts made after it (the admin CLI's too) are not.
  assert.equal((await createTestUser()).id !== owner.id, true);
  const prisma = await db();
  assert.equal(await prisma.user.count({ where: { isOwner: true } }), 1);
});

test("invitation-only (the default): a stranger without one is refused with 403 invitation_required", async () => {
  const err = await refusal(signUp({ input: person(), ip: ip() }));
  assert.equal(err.code, "invitation_required");
  assert.equal(err.status, 403);
  assert.equal(ERROR_STATUS.invitation_required, 403);
  assert.match(err.message, /invitation/);
  const forged = await refusal(signUp({ input: person(), ip: ip(), invitation: "A".repeat(32) }));
  assert.equal(forged.code, "invitation_invalid");
  assert.equal(forged.status, 403);
});

test("the owner's invitation makes one account, once", async () => {
  const made = await invitationOf(ownerId);
  assert.equal(made.status, 201);
  assert.match(made.body.url, /^http:\/\/notes\.example\.com\/sign-up\?invitation=[A-Za-z0-9_-]{32}$/);
  const days = (Date.parse(made.body.expires_at) - Date.now()) / 86_400_000;
  assert.ok(days > 6.9 && days <= 7, `expires in ${days} days`);
  const invited = await signUp({ input: person(), ip: ip(), invitation: tokenOf(made.body.url) });
  assert.equal(invited.isOwner, false);
  const prisma = await db();
  const row = await prisma.invitation.findFirstOrThrow({ where: { usedById: invited.id } });
  assert.ok(row.usedAt);
  assert.ok(!JSON.stringify(row).includes(tokenOf(made.body.url)), "only the token's hash is kept");
  const again = await refusal(signUp({ input: person(), ip: ip(), invitation: tokenOf(made.body.url) }));
  assert.equal(again.code, "invitation_invalid");
  assert.equal(again.status, 403);
});

test("two sign-ups with one invitation at once: one account", async () => {
  const made = await invitationOf(ownerId);
  const results = await Promise.allSettled([0, 1, 2].map(() => signUp({ input: person(), ip: ip(), invitation: tokenOf(made.body.url) })));
  assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
  for (const r of results) if (r.status === "rejected") assert.equal((r.reason as ApiError).code, "invitation_invalid");
});

test("an invitation expires", async () => {
  const made = await invitationOf(ownerId);
  const prisma = await db();
  await prisma.invitation.updateMany({ where: { usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
  const err = await refusal(signUp({ input: person(), ip: ip(), invitation: tokenOf(made.body.url) }));
  assert.equal(err.code, "invitation_invalid");
  // A refused sign-up makes no account.
  assert.equal(await prisma.user.count({ where: { email: { startsWith: `person-${n}-` } } }), 0);
});

test("only the owner invites, and only from the app (not with an API key)", async () => {
  const other = await createTestUser();
  const refused = await invitationOf(other.id);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, "owner_only");
  const withKey = await call(invite, { method: "POST", path: "/api/v1/invitations", key: other.key });
  assert.equal(withKey.status, 403);
  assert.equal(withKey.body.error.code, "session_required");
  const anonymous = await call(invite, { method: "POST", path: "/api/v1/invitations" });
  assert.equal(anonymous.status, 401);
});

test("SIGNUP=closed refuses everyone, invitations too; SIGNUP=open lets anyone in", async () => {
  const made = await invitationOf(ownerId);
  await withEnv({ SIGNUP: "closed" }, async () => {
    for (const invitation of [undefined, tokenOf(made.body.url)]) {
      const err = await refusal(signUp({ input: person(), ip: ip(), invitation }));
      assert.equal(err.code, "sign_up_closed");
      assert.equal(err.status, 403);
    }
  })();
  await withEnv({ SIGNUP: "open" }, async () => {
    const stranger = await signUp({ input: person(), ip: ip() });
    assert.equal(stranger.isOwner, false);
  })();
});

test("upgrading an install that has accounts: they stay, and the oldest becomes the owner", async () => {
  const older = await mkdtemp(path.join(tmpdir(), "vd-before-owner-"));
  const database = await createEmptyDatabase();
  try {
    await cp(MIGRATIONS_DIR, older, { recursive: true, filter: (src) => !src.includes("20261208120000_owner_invitations_pairing") });
    await migrateDatabase(database.url, older);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      for (const [id, email, at] of [
        ["01900000-0000-7000-8000-000000000002", "second@example.test", "2026-01-02"],
        ["01900000-0000-7000-8000-000000000001", "first@example.test", "2026-01-01"],
        ["01900000-0000-7000-8000-000000000003", "third@example.test", "2026-01-03"],
      ]) {
        await client.query(`INSERT INTO users (id, email, created_at, updated_at) VALUES ($1, $2, $3, $3)`, [id, email, at]);
      }
      await migrateDatabase(database.url);
      const { rows } = await client.query(`SELECT email, is_owner FROM users ORDER BY created_at`);
      assert.deepEqual(rows, [
        { email: "first@example.test", is_owner: true },
        { email: "second@example.test", is_owner: false },
        { email: "third@example.test", is_owner: false },
      ]);
      // One owner at most.
      await assert.rejects(client.query(`UPDATE users SET is_owner = true WHERE email = 'third@example.test'`), /unique|duplicate/i);
    } finally {
      await client.end();
    }
  } finally {
    await database.drop();
    await rm(older, { recursive: true, force: true });
  }
});
