import ipaddr from "ipaddr.js";
import { env } from "@/lib/env.ts";
import { ApiError } from "@/lib/http/errors.ts";

// RFC 9110 §7.2: Host is uri-host [":" port], once. The names this server answers are DNS names
// (underscores too, as container names have them), IPv4 addresses and bracketed IPv6 ones: a Host
// with a space, "#", "?", ";" or "/" named no origin, and Next, the OAuth server and publicOrigin
// each broke on it in their own way (500 or 503, no body). The front door refuses it first.

const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::(\d{1,5}))?$/;

/** Whether a Host (or X-Forwarded-Host) value names a host and port a URL can have. */
export function isValidHost(value: string): boolean {
  const match = HOST.exec(value);
  if (!match || (match[1] !== undefined && Number(match[1]) > 65535)) return false;
  return URL.canParse(`http://${value}/`);
}

/** 400 invalid_host: the header is missing, repeated, or not a host with an optional port. */
export const invalidHost = (header: "Host" | "X-Forwarded-Host") =>
  new ApiError("invalid_host", `The ${header} header must name this server once, as a host name or IP address with an optional port (example.com, 127.0.0.1:3000, [::1]:3000).`);

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

// A browser gives a page the microphone, a service worker and installing only in a secure context:
// an https origin, or http to this computer itself (W3C Secure Contexts, "potentially trustworthy":
// localhost, *.localhost, 127.0.0.0/8, ::1). A phone reaching http://<name>:3000 gets none of them.

/** Whether a page of `origin` is a secure context in the browser. */
export function isSecureOrigin(origin: string): boolean {
  const url = new URL(origin);
  if (url.protocol === "https:") return true;
  if (url.protocol !== "http:") return false;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return ipaddr.isValid(host) && ipaddr.process(host).range() === "loopback";
}

export type PublicAddress = { origin: string; secure: boolean };

/** This site's origin as the browser sees it (publicOrigin), and whether a page there is a secure context. */
export function publicAddress(req: Request): PublicAddress {
  const origin = publicOrigin(req);
  return { origin, secure: isSecureOrigin(origin) };
}
