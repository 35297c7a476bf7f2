import { env } from "@/lib/env.ts";
import { invalidHost, isValidHost } from "@/lib/http/host-header.ts";

const first = (value: string | null) => value?.split(",")[0].trim() || undefined;

/**
 * This site's origin as the browser sees it: NEXTAUTH_URL when set; else the Host header, with
 * X-Forwarded-Host and -Proto only when TRUST_PROXY says a proxy of ours sets them (a client
 * could send them otherwise). A malformed one is 400 invalid_host (the front door refuses it before
 * Next; this covers a request that reaches a route another way, as the API tests' do).
 */
export function publicOrigin(req: Request): string {
  const { NEXTAUTH_URL, TRUST_PROXY } = env();
  if (NEXTAUTH_URL) return new URL(NEXTAUTH_URL).origin;
  const url = new URL(req.url);
  const forwarded = (name: string) => (TRUST_PROXY ? first(req.headers.get(name)) : undefined);
  const forwardedHost = forwarded("x-forwarded-host");
  if (forwardedHost !== undefined && !isValidHost(forwardedHost)) throw invalidHost("X-Forwarded-Host");
  const host = forwardedHost ?? req.headers.get("host") ?? url.host;
  if (!isValidHost(host)) throw invalidHost("Host");
  const proto = forwarded("x-forwarded-proto") ?? url.protocol.slice(0, -1);
  return `${proto}://${host}`;
}

export const isServedOverHttps = (req: Request) => publicOrigin(req).startsWith("https://");

/** publicOrigin for a page or server action, which has the request's headers but no Request. */
export const publicOriginOfHeaders = (headers: Headers) =>
  publicOrigin(new Request("http://localhost/", { headers }));
