import Provider, { errors, type Configuration } from "oidc-provider";
import { SCOPES } from "@/lib/api-keys/scopes.ts";
import { CHECKED_METADATA, clientIdUrlAllowed, clientMetadataValidator } from "@/lib/oauth/client-metadata.ts";
import { CLIENT_METADATA_MAX_BYTES, guardedFetch, OUTBOUND_MAX_BYTES } from "@/lib/oauth/guarded-fetch.ts";
import { oauthKeys } from "@/lib/oauth/keys.ts";
import { PrismaAdapter } from "@/lib/oauth/prisma-adapter.ts";

// The OAuth 2.1 authorization server of the MCP server (issue 46): oidc-provider, configured
// for what MCP connectors (claude.ai, ChatGPT, VS Code) use: open dynamic client registration and
// Client ID Metadata Documents,
// authorization code with PKCE (S256 is the only method the library knows; PKCE is required of
// every client here), rotating refresh tokens, revocation, and resource indicators binding each
// access token to this site's /mcp. Consent is the app's own page (/oauth/consent/<uid>).

export const MCP_PATH = "/mcp";
export const OAUTH_PREFIX = "/oauth";
export const ACCESS_TOKEN_TTL = 60 * 60;
const DAY = 24 * 60 * 60;

export const mcpResource = (issuer: string) => `${issuer}${MCP_PATH}`;

function configuration(issuer: string, keys: Awaited<ReturnType<typeof oauthKeys>>): Configuration {
  const resource = mcpResource(issuer);
  return {
    adapter: PrismaAdapter,
    jwks: keys.jwks,
    cookies: { keys: keys.cookieKeys },
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    claims: { openid: ["sub"] },
    // The API's scopes are listed here too: clients register with them (RFC 7591's scope), and
    // the library accepts in a registration only the scopes it lists. Tokens carry them for /mcp
    // (getResourceServerInfo below).
    scopes: ["openid", "offline_access", ...SCOPES],
    responseTypes: ["code"],
    clientDefaults: { grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" },
    pkce: { required: () => true },
    // Every request the library makes goes out through the webhooks' address guard, bounded.
    fetch: guardedFetch as never,
    fetchResponseBodyLimits: { "client_id metadata document": CLIENT_METADATA_MAX_BYTES, jwks_uri: OUTBOUND_MAX_BYTES, sector_identifier_uri: OUTBOUND_MAX_BYTES },
    // Redirect URIs OAuth 2.1 allows, names that are not this site's, no control characters.
    extraClientMetadata: { properties: CHECKED_METADATA, validator: clientMetadataValidator(issuer) },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      // A client_id that is an https URL names its own metadata (a Client ID Metadata Document, the
      // registration MCP clients now prefer): fetched through guardedFetch, checked as a registration
      // is (extraClientMetadata below), kept by the library for its Cache-Control (30 s to a day).
      clientIdMetadataDocument: { enabled: true, ack: "draft-02", allowFetch: async (_ctx, id) => clientIdUrlAllowed(id) },
      // A client revokes its own tokens only (RFC 7009: another's is answered 200, left alone).
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`This server issues tokens for ${resource} only.`);
          return { scope: SCOPES.join(" "), audience: resource, accessTokenTTL: ACCESS_TOKEN_TTL, accessTokenFormat: "opaque" };
        },
      },
    },
    // Every connector may refresh (they stay connected for weeks); each refresh token is used once.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    // The library's own session is plumbing between the consent page and the client's redirect;
    // the grant (revoked in Settings → Connected apps) is what keeps a connector connected.
    expiresWithSession: async () => false,
    ttl: { AccessToken: ACCESS_TOKEN_TTL, AuthorizationCode: 60, RefreshToken: 30 * DAY, Grant: 365 * DAY, Interaction: 60 * 60, Session: 14 * DAY, IdToken: 60 * 60, ClientCredentials: 10 * 60 },
    interactions: { url: (_ctx, interaction) => `${OAUTH_PREFIX}/consent/${interaction.uid}` },
    // An error the library cannot send back to the app (an unknown client, a redirect URI it did
    // not register) is shown on the app's own page, in its look and under its CSP.
    renderError: async (ctx, out) => {
      const query = new URLSearchParams({ error: String(out.error ?? "server_error") });
      if (out.error_description) query.set("error_description", String(out.error_description));
      ctx.redirect(`${OAUTH_PREFIX}/error?${query}`);
    },
    routes: {
      authorization: `${OAUTH_PREFIX}/authorize`,
      token: `${OAUTH_PREFIX}/token`,
      registration: `${OAUTH_PREFIX}/register`,
      revocation: `${OAUTH_PREFIX}/revoke`,
      jwks: `${OAUTH_PREFIX}/jwks`,
      end_session: `${OAUTH_PREFIX}/session/end`,
      introspection: `${OAUTH_PREFIX}/introspect`,
      userinfo: `${OAUTH_PREFIX}/userinfo`,
      pushed_authorization_request: `${OAUTH_PREFIX}/par`,
      code_verification: `${OAUTH_PREFIX}/device`,
      device_authorization: `${OAUTH_PREFIX}/device/auth`,
      backchannel_authentication: `${OAUTH_PREFIX}/backchannel`,
      challenge: `${OAUTH_PREFIX}/challenge`,
    },
  };
}

// One provider per issuer (this site's public origin, as lib/http/public-origin.ts reads it:
// NEXTAUTH_URL when set, so in production just one). Few are kept: without NEXTAUTH_URL the
// origin comes from the Host header, which a client chooses.
const KEPT_MAX = 4;
const kept = globalThis as unknown as { voicedraftOAuthProviders?: Map<string, Promise<Provider>> };

async function makeProvider(issuer: string): Promise<Provider> {
  const provider = new Provider(issuer, configuration(issuer, await oauthKeys()));
  // Requests reach it through the loopback bridge (lib/oauth/bridge.ts), which sets
  // X-Forwarded-Host and -Proto to the public origin.
  provider.proxy = true;
  return provider;
}

/** The authorization server whose issuer is this origin. */
export function oauthProvider(issuer: string): Promise<Provider> {
  const providers = (kept.voicedraftOAuthProviders ??= new Map());
  let provider = providers.get(issuer);
  if (!provider) {
    if (providers.size >= KEPT_MAX) providers.delete(providers.keys().next().value!);
    provider = makeProvider(issuer);
    provider.catch(() => providers.delete(issuer));
    providers.set(issuer, provider);
  }
  return provider;
}
