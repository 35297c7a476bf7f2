import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from "rate-limiter-flexible";
import { db } from "@/lib/db/client.ts";
import { env } from "@/lib/env.ts";

export type Limiter = RateLimiterAbstract;
export type LimiterOptions = { name: string; points: number; durationSeconds: number };

type Query = { text: string; values?: unknown[] };

// rate-limiter-flexible's PostgreSQL store speaks to a `pg`-like client; this one runs its
// statements through Prisma's pool. A pg.Pool of its own would name its prepared statements,
// and the embedded database's wire server shares one session (and its statement names) among
// all clients; this way it works on both databases. BIGINT comes back as bigint: made a number.
const prismaStoreClient = {
  async query({ text, values = [] }: Query) {
    const prisma = await db();
    if (/^\s*DELETE/i.test(text)) return { rows: [], rowCount: await prisma.$executeRawUnsafe(text, ...values) };
    const rows = await prisma.$queryRawUnsafe<Record<string, unknown>[]>(text, ...values);
    const plain = rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v])));
    return { rows: plain, rowCount: plain.length };
  },
};

export function usesDatabase(): boolean {
  const { RATE_LIMIT_STORE, DATABASE_URL } = env();
  return RATE_LIMIT_STORE === "database" || (RATE_LIMIT_STORE === "auto" && Boolean(DATABASE_URL));
}

/** A limiter on the configured store; `store` forces one (tests, bench). */
export function createLimiter({ name, points, durationSeconds }: LimiterOptions, store?: "memory" | "database"): Limiter {
  const options = { keyPrefix: name, points, duration: durationSeconds };
  if ((store ?? (usesDatabase() ? "database" : "memory")) === "memory") return new RateLimiterMemory(options);
  return new RateLimiterPostgres({
    ...options,
    storeClient: prismaStoreClient,
    storeType: "pool",
    tableName: "rate_limits",
    tableCreated: true, // by prisma/migrations
  });
}

const cache = globalThis as unknown as { voicedraftLimiters?: Map<string, Limiter> };

/** One limiter per name and settings in this process (settings change in tests). */
export function limiter(options: LimiterOptions): Limiter {
  const map = (cache.voicedraftLimiters ??= new Map());
  const id = `${options.name}:${options.points}:${options.durationSeconds}:${usesDatabase()}`;
  let found = map.get(id);
  if (!found) map.set(id, (found = createLimiter(options)));
  return found;
}
