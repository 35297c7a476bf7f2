import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { runScript } from "../support/processes.ts";

// The admin CLI as an operator runs it, against a fresh embedded database on disk.
describe("npm run admin", () => {
  let env: Record<string, string>;
  const admin = (args: string[], input?: string) => runScript("admin.ts", args, env, input);
  const password = "correct horse battery staple";

  before(async () => {
    env = { DATA_DIR: await mkdtemp(path.join(tmpdir(), "vd-cli-")), DATABASE_URL: "" };
  });
  after(async () => {
    await rm(env.DATA_DIR, { recursive: true, force: true });
  });

  test("create-user, create-key (key alone on the last line), list-keys, revoke-key", async () => {
    const created = await admin(["create-user", "--email", "Ops@Example.com", "--password", password]);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /Created user ops@example\.com/);

    const keyRun = await admin(["create-key", "--email", "ops@example.com", "--name", "ci", "--scopes", "dictionary:read"]);
    assert.equal(keyRun.code, 0, keyRun.stderr);
    const lines = keyRun.stdout.trimEnd().split("\n");
    const key = lines.at(-1)!;
    assert.match(key, /^vd_[A-Za-z0-9]{43}$/);
    assert.equal(keyRun.stdout.split(key).length, 2, "the key is printed exactly once");

    const listed = await admin(["list-keys", "--email", "ops@example.com", "--json"]);
    assert.equal(listed.code, 0, listed.stderr);
    const keys = JSON.parse(listed.stdout);
    assert.equal(keys.length, 1);
    assert.equal(keys[0].name, "ci");
    assert.deepEqual(keys[0].scopes, ["dictionary:read"]);
    assert.equal(keys[0].prefix, key.slice(0, 9));
    assert.equal(keys[0].revokedAt, null);
    assert.ok(!listed.stdout.includes(key), "list-keys never shows a secret");

    const table = await admin(["list-keys", "--email", "ops@example.com"]);
    assert.match(table.stdout, /PREFIX.*NAME.*SCOPES/);
    assert.match(table.stdout, /active/);

    const revoked = await admin(["revoke-key", "--email", "ops@example.com", "--key", keys[0].prefix]);
    assert.equal(revoked.code, 0, revoked.stderr);
    const after = JSON.parse((await admin(["list-keys", "--email", "ops@example.com", "--json"])).stdout);
    assert.notEqual(after[0].revokedAt, null);
  });

  test("reads the password from stdin, and refuses a taken email", async () => {
    const viaStdin = await admin(["create-user", "--email", "stdin@example.com", "--password-stdin"], `${password}\n`);
    assert.equal(viaStdin.code, 0, viaStdin.stderr);
    const again = await admin(["create-user", "--email", "STDIN@example.com", "--password", password]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /email_taken/);
  });

  test("delete-user: nothing without --yes; with it the user, their keys and their recordings are gone", async () => {
    const created = await admin(["create-user", "--email", "leaving@example.com", "--password", password]);
    assert.equal(created.code, 0, created.stderr);
    const userId = created.stdout.match(/\(([0-9a-f-]{36})\)/)![1];
    assert.equal((await admin(["create-key", "--email", "leaving@example.com"])).code, 0);
    const audioDir = path.join(env.DATA_DIR, "audio", userId);
    await mkdir(audioDir, { recursive: true });
    await writeFile(path.join(audioDir, "0198c2a8-0000-7000-8000-000000000000.webm"), "kept recording");

    const unconfirmed = await admin(["delete-user", "--email", "leaving@example.com"]);
    assert.equal(unconfirmed.code, 2);
    assert.match(unconfirmed.stderr, /add --yes/);
    assert.equal((await admin(["list-keys", "--email", "leaving@example.com", "--json"])).code, 0, "still there");
    assert.ok(existsSync(audioDir));

    const deleted = await admin(["delete-user", "--email", "LEAVING@example.com", "--yes"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, /Deleted user leaving@example\.com .* with 0 notes/);
    assert.equal(existsSync(audioDir), false);
    const gone = await admin(["list-keys", "--email", "leaving@example.com"]);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /not_found/);
  });

  test("clear errors: usage, unknown user, bad scope, short password", async () => {
    const usage = await admin(["create-key"]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--email is required/);
    const unknown = await admin(["nope"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown command "nope"/);
    const noUser = await admin(["create-key", "--email", "ghost@example.com"]);
    assert.equal(noUser.code, 1);
    assert.match(noUser.stderr, /not_found.*ghost@example\.com/);
    const badScope = await admin(["create-key", "--email", "stdin@example.com", "--scopes", "everything"]);
    assert.equal(badScope.code, 1);
    assert.match(badScope.stderr, /scopes/);
    const short = await admin(["create-user", "--email", "short@example.com", "--password", "short"]);
    assert.equal(short.code, 1);
    assert.match(short.stderr, /at least 10 characters/);
    assert.ok(!short.stdout.includes("short") && !short.stderr.includes('"short"'), "the password is not echoed");
  });
});
