import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/auth-options.ts";

export const dynamic = "force-dynamic";

// Self-hosted behind whatever host name it is reached by: next-auth takes its origin from the
// Host header unless NEXTAUTH_URL pins it. A client's own X-Forwarded-Host/-Proto never reach it
// without TRUST_PROXY (lib/http/node-server-guards.ts drops them).
process.env.AUTH_TRUST_HOST ??= "true";

type Context = { params: Promise<{ nextauth: string[] }> };

// GET|POST /api/auth/* – next-auth: csrf token, credentials sign-in, sign-out (browser only, not in OpenAPI)
async function handler(req: Request, ctx: Context): Promise<Response> {
  return NextAuth(req as never, ctx as never, await authOptions());
}

export { handler as GET, handler as POST };
