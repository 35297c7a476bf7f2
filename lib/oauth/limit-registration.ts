import { env } from "@/lib/env.ts";
import { clientIp } from "@/lib/http/client-ip.ts";
import { limiter } from "@/lib/rate-limit/store.ts";
import { isLimitHit } from "@/lib/rate-limit/rate-limited.ts";

// Dynamic client registration is open, as MCP connectors expect, and a client is kept until it is
// deleted: without a limit one address could fill the table. Counted per address per hour; the
// refusal is an OAuth error (RFC 7591 clients read `error`), not the API's error shape.

/** null when this registration may go ahead; else the 429 to answer. */
export async function limitRegistration(req: Request): Promise<Response | null> {
  const limit = env().RATE_LIMIT_OAUTH_REGISTRATIONS_PER_HOUR;
  if (!limit || req.method !== "POST") return null;
  try {
    await limiter({ name: "oauth-register", points: limit, durationSeconds: 3600 }).consume(clientIp(req.headers));
    return null;
  } catch (err) {
    if (!isLimitHit(err)) throw err;
    const wait = String(Math.ceil(err.msBeforeNext / 1000));
    return Response.json(
      { error: "rate_limited", error_description: `Too many apps were registered from your network; try again in ${wait} s.` },
      { status: 429, headers: { "Retry-After": wait, "Cache-Control": "no-store" } },
    );
  }
}
