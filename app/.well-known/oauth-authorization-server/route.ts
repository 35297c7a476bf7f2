import { withRequest } from "@/lib/api/with-request.ts";
import { forwardToOAuthServer } from "@/lib/oauth/bridge.ts";

// GET /.well-known/oauth-authorization-server – RFC 8414 metadata of the OAuth server (the same
// document oidc-provider serves as its OpenID configuration; the issuer has no path, so both
// live at the root)
export const GET = withRequest(({ req }) => forwardToOAuthServer(req, "/.well-known/openid-configuration"));
export const OPTIONS = GET;
