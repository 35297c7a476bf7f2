// Shared set-up of the benchmarks: an in-memory database, migrated, behind lib/db; one user with
// an API key and the given dictionary. Import it after setting the process environment.
import { startInMemoryDatabase } from "@/tests/support/in-memory-database.ts";
import { migrateDatabase } from "@/lib/db/migrate.ts";

export type BenchEntry = { misspelling: string; correctSpelling: string };

/** `count` entries that never match speech ("zorblat 17" → "Zorblat17"). */
export const unmatchedEntries = (count: number): BenchEntry[] =>
  Array.from({ length: count }, (_, i) => ({ misspelling: `zorblat ${i}`, correctSpelling: `Zorblat${i}` }));

export async function benchUser(entries: BenchEntry[]) {
  const host = await startInMemoryDatabase();
  await migrateDatabase(host.url);
  process.env.DATABASE_URL = host.url;
  // Starting the database read the settings already: read them again, or lib/db would open DATA_DIR's.
  (await import("@/lib/env.ts")).resetEnvCache();
  const { createUser } = await import("@/lib/accounts/create-user.ts");
  const { createApiKey } = await import("@/lib/api-keys/create-api-key.ts");
  const { db, closeDb } = await import("@/lib/db/client.ts");
  const { matchKey } = await import("@/lib/dictionary/match-key.ts");
  const user = await createUser({ input: { email: "bench@example.com", password: "correct horse battery staple" } });
  const { key } = await createApiKey({ userId: user.id, input: { name: "bench" } });
  const prisma = await db();
  await prisma.dictionaryEntry.createMany({ data: entries.map((e) => ({ userId: user.id, matchKey: matchKey(e.misspelling), ...e })) });
  return {
    key,
    prisma,
    async close() {
      await closeDb();
      await host.stop();
    },
  };
}
