import { SCOPES, type Scope } from "@/lib/api-keys/scopes.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { LOOPBACK_HOSTS } from "@/lib/oauth/client-metadata.ts";
import { mcpResource, oauthProvider } from "@/lib/oauth/provider.ts";

// The consent step of an authorization (oidc-provider's "interaction"), answered by the app's
// page /oauth/consent/<uid> for the signed-in person. The library's own helpers for this
// (interactionDetails, interactionFinished) read Node's req/res; the page has Next's cookies,
// so this does what they do through the library's models: the interaction is read, and its
// result saved, only when the browser holds the interaction's cookie, which the library set on
// the browser that started the authorization. Without that check another person's link could
// have them approve an app for someone else's browser. The browser then returns to the
// library's resume URL, which also checks its own cookie.

export const INTERACTION_COOKIE = "_interaction";

/** Where the code goes: a web host, or (onThisDevice) a loopback address or a native app's scheme. */
export type ReturnsTo = { host: string; onThisDevice: boolean };
export type ConsentRequest = { uid: string; clientName: string; returnsTo: ReturnsTo | null; scopes: Scope[] };

async function findInteraction(input: { issuer: string; uid: string; cookieUid: string | undefined }) {
  const provider = await oauthProvider(input.issuer);
  const interaction = input.cookieUid === input.uid ? await provider.Interaction.find(input.uid) : undefined;
  if (!interaction) throw new ApiError("not_found", "This request to connect an app has expired or was opened in another browser. Start again from the app.");
  return { provider, interaction };
}

const requestedScopes = (scope: unknown): Scope[] => {
  const asked = new Set(String(scope ?? "").split(" "));
  return SCOPES.filter((s) => asked.has(s));
};

function returnsToOf(redirectUri: string): ReturnsTo | null {
  const url = URL.parse(redirectUri);
  if (!url) return null;
  if (url.protocol === "https:" || url.protocol === "http:") return { host: url.host, onThisDevice: LOOPBACK_HOSTS.has(url.hostname) };
  return { host: url.protocol.slice(0, -1), onThisDevice: true };
}

/** What an app asks for: its name, where it sends the person back, and the scopes in its request. */
export async function readConsentRequest(input: { issuer: string; uid: string; cookieUid: string | undefined }): Promise<ConsentRequest> {
  const { provider, interaction } = await findInteraction(input);
  const clientId = String(interaction.params.client_id);
  const client = await provider.Client.find(clientId);
  const returnsTo = returnsToOf(String(interaction.params.redirect_uri ?? ""));
  return { uid: input.uid, clientName: client?.clientName || "An app", returnsTo, scopes: requestedScopes(interaction.params.scope) };
}

/**
 * Allow: a grant of the requested scopes on this site's /mcp for this person; Deny: access_denied
 * to the app. Returns the URL the browser goes on to (the library's resume endpoint).
 */
export async function answerConsentRequest(input: { issuer: string; uid: string; cookieUid: string | undefined; userId: string; allow: boolean }): Promise<string> {
  const { provider, interaction } = await findInteraction(input);
  if (!input.allow) {
    interaction.result = { error: "access_denied", error_description: "The person did not allow this app." };
  } else {
    const clientId = String(interaction.params.client_id);
    const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    const grant = existing?.accountId === input.userId ? existing : new provider.Grant({ accountId: input.userId, clientId });
    // The library lists the API's scopes among its own (provider.ts), so it asks consent for
    // them as such, and the /mcp resource gets them too: its access tokens carry them.
    const asked = new Set(String(interaction.params.scope ?? "").split(" "));
    const scopes = requestedScopes(interaction.params.scope).join(" ");
    const oidcScopes = ["openid", "offline_access"].filter((s) => asked.has(s)).join(" ");
    if (oidcScopes || scopes) grant.addOIDCScope(`${oidcScopes} ${scopes}`.trim());
    if (scopes) grant.addResourceScope(mcpResource(input.issuer), scopes);
    interaction.result = { login: { accountId: input.userId }, consent: { grantId: await grant.save() } };
  }
  await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  return interaction.returnTo;
}
