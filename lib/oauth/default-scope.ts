import { SCOPES } from "@/lib/api-keys/scopes.ts";
import { OAUTH_PREFIX } from "@/lib/oauth/provider.ts";

// An authorization request that names no scope gets the default (RFC 6749 §3.3): every scope of
// the API, which the consent page lists as for any other request, so the person sees and answers
// them. oidc-provider grants only what a request names, so without this such a request (the MCP
// conformance suite's, an app that leaves scope out) ended in access_denied whatever the person
// answered. The browser is sent on to the same request with the scope added.

/** The same authorization request with the default scope, when it names none; else null. */
export function withDefaultScope(req: Request): Response | null {
  const url = new URL(req.url);
  if (req.method !== "GET" || url.pathname !== `${OAUTH_PREFIX}/authorize` || url.searchParams.get("scope")?.trim()) return null;
  url.searchParams.set("scope", SCOPES.join(" "));
  return new Response(null, { status: 303, headers: { Location: `${url.pathname}${url.search}`, "Cache-Control": "no-store" } });
}
