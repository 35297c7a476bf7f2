import type { ApiPrincipal } from "@/lib/api-keys/authenticate-api-key.ts";
import { ScopeSchema, type Scope } from "@/lib/api-keys/scopes.ts";
import { setBounded } from "@/lib/bounded-map.ts";
import { db } from "@/lib/db/client.ts";
import { unauthorized } from "@/lib/http/errors.ts";
import { errorFields, log } from "@/lib/log.ts";
import { mcpResource, oauthProvider } from "@/lib/oauth/provider.ts";

// An access token of this site's OAuth server, presented at /mcp: opaque, so it is looked up
// (oidc-provider's AccessToken.find, which refuses unknown and expired ones); then its audience
// must be this /mcp (RFC 8707: a token made for another resource is refused) and its grant
// still there (Settings → Connected apps deletes the grant and its tokens). The principal's key
// id is the grant's, so the API's per-key rate limit counts per connected app.

const LAST_USED_RESOLUTION_MS = 60_000;
const lastUsedWrites = new Map<string, number>();

function recordUse(grantId: string): void {
  const now = Date.now();
  const started = lastUsedWrites.get(grantId);
  if (started !== undefined && now - started <= LAST_USED_RESOLUTION_MS) return;
  setBounded(lastUsedWrites, grantId, now, 10_000, (at) => now - at > LAST_USED_RESOLUTION_MS);
  void db()
    .then((prisma) => prisma.oAuthRecord.updateMany({ where: { model: "Grant", id: grantId }, data: { lastUsedAt: new Date(now) } }))
    .catch((err) => log.warn("could not record connected app use", { grant_id: grantId, ...errorFields(err) }));
}

/** Resolves an OAuth access token to its owner and the scopes granted; every failure is a 401. */
export async function authenticateAccessToken(token: string, issuer: string): Promise<ApiPrincipal> {
  const provider = await oauthProvider(issuer);
  const accessToken = await provider.AccessToken.find(token);
  if (!accessToken || !accessToken.accountId || !accessToken.grantId) throw unauthorized("This access token is not known, has expired or was revoked.");
  const audiences = [accessToken.aud].flat();
  if (!audiences.includes(mcpResource(issuer))) throw unauthorized(`This access token is not for ${mcpResource(issuer)}.`);
  const grant = await provider.Grant.find(accessToken.grantId);
  if (!grant || grant.accountId !== accessToken.accountId) throw unauthorized("This connected app was disconnected.");
  const scopes = (accessToken.scope ?? "").split(" ").filter((s): s is Scope => ScopeSchema.safeParse(s).success);
  recordUse(accessToken.grantId);
  return { userId: accessToken.accountId, keyId: `oauth:${accessToken.grantId}`, scopes };
}
