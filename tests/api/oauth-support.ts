import assert from "node:assert/strict";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { DELETE as mcpDelete, GET as mcpGet, POST as mcpPost } from "@/app/mcp/route.ts";
import { GET as resourceMetadata } from "@/app/.well-known/oauth-protected-resource/route.ts";
import { GET as serverMetadata } from "@/app/.well-known/oauth-authorization-server/route.ts";
import { GET as openidConfiguration } from "@/app/.well-known/openid-configuration/route.ts";
import { GET as oauthGet, POST as oauthPost } from "@/app/oauth/[...path]/route.ts";
import { answerConsentRequest } from "@/lib/oauth/consent.ts";

// A connector's world, in-process: a fetch that hands each request to the route handler Next
// would pick (the MCP SDK's client uses it for /mcp, discovery, registration and tokens), and a
// browser with a cookie jar that follows the authorization to the consent page, where the test
// plays the signed-in person answering Allow or Deny, and back to the client's redirect URI.

export const ORIGIN = "http://localhost";
export const MCP_URL = `${ORIGIN}/mcp`;
export const REDIRECT_URI = "http://127.0.0.1:33418/callback";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
function route(method: string, path: string): Handler | undefined {
  if (path === "/mcp") return ({ POST: mcpPost, GET: mcpGet, DELETE: mcpDelete } as Record<string, Handler>)[method];
  if (method !== "GET" && method !== "POST") return undefined;
  if (path === "/.well-known/oauth-protected-resource") return resourceMetadata;
  if (path === "/.well-known/oauth-authorization-server") return serverMetadata;
  if (path === "/.well-known/openid-configuration") return openidConfiguration;
  if (path.startsWith("/oauth/")) return method === "GET" ? oauthGet : oauthPost;
  return undefined;
}

export const inProcessFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const req = new Request(input, init);
  const handler = route(req.method, new URL(req.url).pathname);
  if (!handler) return new Response("not found", { status: 404 });
  return handler(req, { params: Promise.resolve({}) });
};

/** A browser: follows redirects within this site, keeping cookies by path. */
export class Browser {
  private jar = new Map<string, { value: string; path: string }>();

  private cookieHeader(path: string) {
    return [...this.jar].filter(([, c]) => path.startsWith(c.path)).map(([name, c]) => `${name}=${c.value}`).join("; ");
  }

  cookie(name: string) {
    return this.jar.get(name)?.value;
  }

  /** GETs url; returns the first Location outside this site (or the last response's). */
  async visit(url: string): Promise<{ status: number; location: URL }> {
    let next = new URL(url, ORIGIN);
    for (let hop = 0; hop < 10; hop++) {
      const res = await inProcessFetch(next, { headers: { cookie: this.cookieHeader(next.pathname) }, redirect: "manual" });
      for (const line of res.headers.getSetCookie()) {
        const [pair, ...attributes] = line.split(";").map((s) => s.trim());
        const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
        const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) ?? "/";
        if (attributes.some((a) => /^expires=Thu, 01 Jan 1970/i.test(a)) || value === "") this.jar.delete(name);
        else this.jar.set(name, { value, path });
      }
      const location = res.headers.get("location");
      if (!location) return { status: res.status, location: next };
      next = new URL(location, next);
      if (next.origin !== ORIGIN || next.pathname.startsWith("/oauth/consent/")) return { status: res.status, location: next };
    }
    throw new Error("too many redirects");
  }
}

/** The SDK's OAuth client provider, as an assistant implements it (kept in memory). */
export class TestOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;

  constructor(private readonly name = "Test Assistant") {}

  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.name, redirect_uris: [REDIRECT_URI], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * The person's part: opens the authorization URL in a browser, answers the consent page as
 * `userId`, and returns where the browser lands at the client (the redirect URI with code or error).
 */
export async function consent(authorizationUrl: URL, userId: string, allow: boolean): Promise<URL> {
  const browser = new Browser();
  const atConsent = await browser.visit(authorizationUrl.href);
  assert.match(atConsent.location.pathname, /^\/oauth\/consent\/[\w-]+$/, `the authorization asks for consent (${atConsent.status})`);
  const uid = atConsent.location.pathname.split("/").pop()!;
  const next = await answerConsentRequest({ issuer: ORIGIN, uid, cookieUid: browser.cookie("_interaction"), userId, allow });
  const back = await browser.visit(next);
  assert.equal(back.location.origin + back.location.pathname, REDIRECT_URI.replace("/callback", "") + "/callback");
  return back.location;
}
