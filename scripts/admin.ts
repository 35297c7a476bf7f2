// The headless admin CLI: npm run admin -- <command> [options]. See docs/configuration.md.
import { parseArgs } from "node:util";
import { text } from "node:stream/consumers";
import type { Scope } from "@/lib/api-keys/scopes.ts";

process.env.LOG_LEVEL ??= "warn"; // stdout is for answers (the new key is its last line), not logs

const { createUser } = await import("@/lib/accounts/create-user.ts");
const { findUserByEmail } = await import("@/lib/accounts/find-user.ts");
const { findOwner } = await import("@/lib/accounts/find-owner.ts");
const { createInvitation, INVITATION_DAYS } = await import("@/lib/accounts/create-invitation.ts");
const { env } = await import("@/lib/env.ts");
const { createApiKey } = await import("@/lib/api-keys/create-api-key.ts");
const { deleteAccount } = await import("@/lib/accounts/delete-account.ts");
const { listApiKeys } = await import("@/lib/api-keys/list-api-keys.ts");
const { revokeApiKey } = await import("@/lib/api-keys/revoke-api-key.ts");
const { SCOPES } = await import("@/lib/api-keys/scopes.ts");
const { closeDb, databaseDescription } = await import("@/lib/db/client.ts");
const { ApiError } = await import("@/lib/http/errors.ts");

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-user --email E (--password P | --password-stdin) [--name N]
      Creates a user (the first one is the owner). --password-stdin reads the password
      from standard input, which keeps it out of the shell history and the process list.
  owner
      Says which account is this install's owner (its first account; after an
      upgrade, the oldest), who invites others.
  invite
      Makes an invitation link of the owner's (one account, within ${INVITATION_DAYS} days), at
      NEXTAUTH_URL (else http://localhost:PORT).
  create-key --email E [--name N] [--scopes a,b] [--expires-in-days D]
      Creates an API key and prints it alone on the last line of stdout. It is
      shown only this once. Scopes: ${SCOPES.join(", ")} (default: all).
  list-keys --email E [--json]
      Lists the user's keys (prefix, name, scopes, created, last used, expiry, revoked).
  revoke-key --email E --key ID_OR_PREFIX
      Revokes a key at once; requests with it get 401 from then on.
  delete-user --email E --yes
      Deletes the user and everything of theirs for good: notes, kept recordings
      (every audio store), dictionary, posts, channels, presets, keys, sessions.
      Without --yes nothing is deleted.

The database is DATABASE_URL when set, else the embedded one under DATA_DIR (./data).`;

class UsageError extends Error {}

type Options = Record<string, string | boolean | undefined>;

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required.`);
  return value;
}

function formatDate(date: Date | null): string {
  return date ? date.toISOString().replace(/\.\d+Z$/, "Z") : "-";
}

const commands: Record<string, { options: Record<string, { type: "string" | "boolean" }>; run(o: Options): Promise<void> }> = {
  "create-user": {
    options: { email: { type: "string" }, password: { type: "string" }, "password-stdin": { type: "boolean" }, name: { type: "string" } },
    async run(o) {
      const password = o["password-stdin"] ? (await text(process.stdin)).replace(/\r?\n$/, "") : required(o, "password");
      const user = await createUser({
        input: { email: required(o, "email"), password, name: typeof o.name === "string" ? o.name : undefined },
      });
      console.log(`Created user ${user.email} (${user.id})${user.isOwner ? ", the owner of this install" : ""}.`);
    },
  },
  owner: {
    options: {},
    async run() {
      const owner = await findOwner();
      console.log(owner ? `The owner is ${owner.email} (${owner.id}), since ${formatDate(owner.createdAt)}.` : "No account yet: the first one made will be the owner.");
    },
  },
  invite: {
    options: {},
    async run() {
      const owner = await findOwner();
      if (!owner) throw new UsageError("No account yet: the first one made (at /sign-up or with create-user) is the owner, who needs no invitation.");
      const { NEXTAUTH_URL, PORT } = env();
      const { url, expiresAt } = await createInvitation({ userId: owner.id, origin: NEXTAUTH_URL ? new URL(NEXTAUTH_URL).origin : `http://localhost:${PORT}` });
      console.log(`An invitation of ${owner.email}'s, for one account, until ${formatDate(expiresAt)}:`);
      console.log(url);
    },
  },
  "create-key": {
    options: { email: { type: "string" }, name: { type: "string" }, scopes: { type: "string" }, "expires-in-days": { type: "string" } },
    async run(o) {
      const user = await findUserByEmail(required(o, "email"));
      const days = o["expires-in-days"];
      if (days !== undefined && !(Number(days) > 0)) throw new UsageError("--expires-in-days must be a positive number.");
      const { key, apiKey } = await createApiKey({
        userId: user.id,
        input: {
          name: typeof o.name === "string" ? o.name : undefined,
          // Validated against the known scopes by createApiKey.
          scopes: typeof o.scopes === "string" ? (o.scopes.split(",").map((s) => s.trim()).filter(Boolean) as Scope[]) : undefined,
          expiresAt: days === undefined ? undefined : new Date(Date.now() + Number(days) * 86_400_000),
        },
      });
      console.log(`Created key ${apiKey.prefix}… "${apiKey.name}" for ${user.email}`);
      console.log(`  scopes: ${apiKey.scopes.join(", ")}; expires: ${formatDate(apiKey.expiresAt)}`);
      console.log("Store it now; it is not shown again:");
      console.log(key);
    },
  },
  "list-keys": {
    options: { email: { type: "string" }, json: { type: "boolean" } },
    async run(o) {
      const user = await findUserByEmail(required(o, "email"));
      const keys = await listApiKeys({ userId: user.id });
      if (o.json) {
        console.log(JSON.stringify(keys, null, 2));
        return;
      }
      if (!keys.length) {
        console.log(`${user.email} has no API keys.`);
        return;
      }
      const rows = keys.map((k) => [
        k.id,
        k.prefix,
        k.name,
        k.scopes.join(","),
        formatDate(k.createdAt),
        formatDate(k.lastUsedAt),
        formatDate(k.expiresAt),
        k.revokedAt ? `revoked ${formatDate(k.revokedAt)}` : "active",
      ]);
      const header = ["ID", "PREFIX", "NAME", "SCOPES", "CREATED", "LAST USED", "EXPIRES", "STATUS"];
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
      for (const row of [header, ...rows]) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd());
    },
  },
  "revoke-key": {
    options: { email: { type: "string" }, key: { type: "string" } },
    async run(o) {
      const user = await findUserByEmail(required(o, "email"));
      const key = await revokeApiKey({ userId: user.id, input: { id: required(o, "key") } });
      console.log(`Revoked key ${key.prefix}… "${key.name}" (${key.id}) at ${formatDate(key.revokedAt)}.`);
    },
  },
  "delete-user": {
    options: { email: { type: "string" }, yes: { type: "boolean" } },
    async run(o) {
      const user = await findUserByEmail(required(o, "email"));
      if (!o.yes) throw new UsageError(`Deleting ${user.email} and all their data cannot be undone; add --yes to do it.`);
      const { notes } = await deleteAccount({ userId: user.id });
      console.log(`Deleted user ${user.email} (${user.id}) with ${notes} note${notes === 1 ? "" : "s"} and all their data.`);
    },
  },
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  const command = commands[name];
  try {
    if (!command) throw new UsageError(`Unknown command "${name}".`);
    let values: Options;
    try {
      ({ values } = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false }));
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    // Say which database, so a CLI run on the wrong DATA_DIR is noticed (stdout stays the answer).
    console.error(`Using the ${await databaseDescription()}.`);
    await command.run(values);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof ApiError) {
      console.error(`Error (${err.code}): ${err.message}`);
      return 1;
    }
    console.error(`Error: ${(err as Error).message}`);
    return 1;
  } finally {
    await closeDb();
  }
}

process.exitCode = await main(process.argv.slice(2));
