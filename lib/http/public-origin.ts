import { env } from "@/lib/env.ts";

const first = (value: string | null) => value?.split(",")[0].trim() || undefined;

/**
 * This site's origin as the browser sees it: NEXTAUTH_URL when set; else the Host header, with
 * X-Forwarded-Host and -Proto only when TRUST_PROXY says a proxy of ours sets them (a client
 * could send them otherwise).
 */
export function publicOrigin(req: Request): string {
  const { NEXTAUTH_URL, TRUST_PROXY } = env();
  if (NEXTAUTH_URL) return new URL(NEXTAUTH_URL).origin;
  const url = new URL(req.url);
  const forwarded = (name: string) => (TRUST_PROXY ? first(req.headers.get(name)) : undefined);
  const host = forwarded("x-forwarded-host") ?? req.headers.get("host") ?? url.host;
  const proto = forwarded("x-forwarded-proto") ?? url.protocol.slice(0, -1);
  return `${proto}://${host}`;
}

export const isServedOverHttps = (req: Request) => publicOrigin(req).startsWith("https://");

/** publicOrigin for a page or server action, which has the request's headers but no Request. */
export const publicOriginOfHeaders = (headers: Headers) =>
  publicOrigin(new Request(`http://${headers.get("host") ?? "localhost"}/`, { headers }));
