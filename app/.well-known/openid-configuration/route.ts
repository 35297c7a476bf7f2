import { withRequest } from "@/lib/api/with-request.ts";
import { forwardToOAuthServer } from "@/lib/oauth/bridge.ts";

// GET /.well-known/openid-configuration – the OAuth server's metadata, as oidc-provider serves it
export const GET = withRequest(({ req }) => forwardToOAuthServer(req, "/.well-known/openid-configuration"));
export const OPTIONS = GET;
