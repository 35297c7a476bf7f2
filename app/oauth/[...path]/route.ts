import { forwardToOAuthServer } from "@/lib/oauth/bridge.ts";

// /oauth/* – the OAuth server's endpoints (authorize, token, register, revoke, jwks), answered
// by oidc-provider through the loopback bridge (lib/oauth/bridge.ts). The consent page,
// /oauth/consent/<uid>, is the app's own (a static segment wins over this catch-all).
const forward = (req: Request) => forwardToOAuthServer(req, new URL(req.url).pathname);

export const GET = forward;
export const POST = forward;
export const DELETE = forward;
export const OPTIONS = forward;
