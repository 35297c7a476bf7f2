import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // NEXT_DIST_DIR lets several checkouts' tools (or parallel test runs) build side by side.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // Native and wasm packages stay in node_modules instead of being bundled into the server.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "@napi-rs/whisper", "pg", "@prisma/adapter-pg", "pg-boss"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
