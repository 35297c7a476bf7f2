import { withRequest } from "@/lib/api/with-request.ts";
import { forwardToOAuthServer } from "@/lib/oauth/bridge.ts";
import { limitRegistration } from "@/lib/oauth/limit-registration.ts";
import { OAUTH_PREFIX } from "@/lib/oauth/provider.ts";
import { withDefaultScope } from "@/lib/oauth/default-scope.ts";

// /oauth/* – the OAuth server's endpoints (authorize, token, register, revoke, jwks), answered
// by oidc-provider through the loopback bridge (lib/oauth/bridge.ts). The consent page,
// /oauth/consent/<uid>, is the app's own (a static segment wins over this catch-all). The OAuth
// server answers its own errors (RFC 6749's shape); what fails before it (a malformed Host) is
// answered in the API's. An authorization request without a scope is sent on with the default.
const forward = withRequest(async ({ req }) => {
  const path = new URL(req.url).pathname;
  const defaulted = withDefaultScope(req);
  if (defaulted) return defaulted;
  if (path === `${OAUTH_PREFIX}/register`) {
    const refused = await limitRegistration(req);
    if (refused) return refused;
  }
  return forwardToOAuthServer(req, path);
});

export const GET = forward;
export const POST = forward;
export const DELETE = forward;
export const OPTIONS = forward;
