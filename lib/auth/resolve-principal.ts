import { authenticateApiKey, type ApiPrincipal } from "@/lib/api-keys/authenticate-api-key.ts";
import { SCOPES } from "@/lib/api-keys/scopes.ts";
import { findSession } from "@/lib/auth/sessions.ts";
import { parseCookieHeader, sessionTokenFrom } from "@/lib/auth/session-cookie.ts";
import { assertSameOrigin } from "@/lib/auth/same-origin.ts";

export type Principal = ApiPrincipal | { userId: string; keyId: null; scopes: ApiPrincipal["scopes"] };

/**
 * Who is calling: a Bearer API key when the request carries an Authorization header (programs),
 * otherwise a browser session cookie, which acts with every scope for its own user.
 */
export async function resolvePrincipal(req: Request): Promise<Principal> {
  const authorization = req.headers.get("authorization");
  if (!authorization) {
    const cookies = parseCookieHeader(req.headers.get("cookie"));
    const session = await findSession(sessionTokenFrom((name) => cookies.get(name)));
    if (session) {
      assertSameOrigin(req);
      return { userId: session.userId, keyId: null, scopes: [...SCOPES] };
    }
  }
  return authenticateApiKey(authorization);
}
