// A throwaway PGlite for tests and benchmarks, served over the wire protocol like the real one.
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { embeddedUrl, serve, wireLimits, type EmbeddedHost } from "@/lib/db/embedded.ts";
import type { WireOptions } from "@/lib/db/pglite-wire-server.ts";

/** A throwaway in-memory database served the same way (tests; `options` override the limits). */
export async function startInMemoryDatabase(options: WireOptions = {}): Promise<EmbeddedHost> {
  const db = await PGlite.create();
  const secret = randomBytes(32).toString("base64url");
  const { port, server } = await serve(db, { password: secret, ...wireLimits(), ...options });
  return {
    url: embeddedUrl(port, secret),
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
