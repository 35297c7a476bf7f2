import { defineConfig } from "prisma/config";

// The CLI is used here only for `prisma generate` (offline). Migrations are applied by
// lib/db/migrate.ts, which keeps Prisma's own _prisma_migrations bookkeeping.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/voicedraft" },
});
