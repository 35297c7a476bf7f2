import { PrismaPg } from "@prisma/adapter-pg";
import { env } from "@/lib/env.ts";
import { errorFields, log } from "@/lib/log.ts";
import { PrismaClient } from "@/lib/db/generated/client.ts";
import { findEmbeddedHost, hostEmbeddedDatabase, type EmbeddedHost } from "@/lib/db/embedded.ts";
import { migrateDatabase } from "@/lib/db/migrate.ts";

export type Database = PrismaClient;
export type DatabaseKind = "postgresql" | "embedded";
type Connection = { prisma: PrismaClient; kind: DatabaseKind; url: string; description: string; host?: EmbeddedHost };

// One client per process; kept on globalThis so Next's dev reloads don't open a new pool each time.
const state = globalThis as unknown as { voicedraftDb?: Promise<Connection> };

// Every pg client has an error listener (issue 60): a connection dropped under a request (the
// embedded database ends one that holds it too long, PostgreSQL restarts) fails that request's
// query, 503 database_unavailable, and is logged; an 'error' event nobody listens to would end the
// process. The pool's idle clients and transactions' connections are the adapter's; these log them.
function createClient(url: string): PrismaClient {
  const adapter = new PrismaPg(
    { connectionString: url, max: 10 },
    {
      onPoolError: (err) => log.warn("database connection lost (idle)", errorFields(err)),
      onConnectionError: (err) => log.warn("database connection lost (in a transaction)", errorFields(err)),
    },
  );
  return new PrismaClient({ adapter });
}

function describePostgres(url: string): string {
  const u = new URL(url);
  return `PostgreSQL database ${decodeURIComponent(u.pathname.slice(1)) || "(default)"} at ${u.host}`;
}

async function connect(): Promise<Connection> {
  const { DATABASE_URL, dataDir } = env();
  if (DATABASE_URL) {
    return { prisma: createClient(DATABASE_URL), kind: "postgresql", url: DATABASE_URL, description: describePostgres(DATABASE_URL) };
  }
  const running = await findEmbeddedHost(dataDir);
  if (running) {
    const description = `embedded database in ${dataDir} (served by ${running.role})`;
    return { prisma: createClient(running.url), kind: "embedded", url: running.url, description };
  }
  // Nobody serves the embedded database yet (e.g. `next dev` or the CLI alone): this process does.
  const host = await hostEmbeddedDatabase(dataDir, `pid ${process.pid}`, {
    ready: async (url) => {
      const report = await migrateDatabase(url);
      if (report.applied.length) log.info("migrations applied", { applied: report.applied });
    },
  });
  const description = `embedded database in ${dataDir} (opened by this process)`;
  return { prisma: createClient(host.url), kind: "embedded", url: host.url, description, host };
}

function connection(): Promise<Connection> {
  state.voicedraftDb ??= connect().catch((err) => {
    state.voicedraftDb = undefined;
    throw err;
  });
  return state.voicedraftDb;
}

/** The Prisma client for this process (PostgreSQL when DATABASE_URL is set, else embedded PGlite). */
export async function db(): Promise<Database> {
  return (await connection()).prisma;
}

export async function databaseKind(): Promise<DatabaseKind> {
  return (await connection()).kind;
}

/** Which database this process uses, for people (no password): a path or a PostgreSQL host. */
export async function databaseDescription(): Promise<string> {
  return (await connection()).description;
}

export async function databaseUrl(): Promise<string> {
  return (await connection()).url;
}

export async function closeDb(): Promise<void> {
  const current = state.voicedraftDb;
  state.voicedraftDb = undefined;
  if (!current) return;
  const { prisma, host } = await current.catch(() => ({ prisma: undefined, host: undefined }));
  await prisma?.$disconnect();
  await host?.stop();
}
