import ipaddr from "ipaddr.js";
import { env } from "@/lib/env.ts";

// Against DNS rebinding: a page of another site whose name an attacker points at this server's
// address reaches it with that name in the Host header (and a matching Origin, so the Origin check
// alone passes). Names such a page cannot use are let through: loopback names, IP addresses, and the
// public URL's host (NEXTAUTH_URL); a server reached by another name must be told it (NEXTAUTH_URL).

const LOOPBACK_NAMES = new Set(["localhost", "localhost."]);

/** The host name the request was sent to (X-Forwarded-Host only when a proxy of ours sets it), lower case, without port or brackets. */
function requestHostName(req: Request): string | undefined {
  const { TRUST_PROXY } = env();
  const raw = (TRUST_PROXY ? req.headers.get("x-forwarded-host")?.split(",")[0].trim() : undefined) || req.headers.get("host") || new URL(req.url).host;
  try {
    return new URL(`http://${raw}`).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return undefined;
  }
}

/** Whether a request's Host names this server in a way no other site's page can. */
export function isAllowedHost(req: Request): boolean {
  const name = requestHostName(req);
  if (!name) return false;
  if (LOOPBACK_NAMES.has(name) || name.endsWith(".localhost") || ipaddr.isValid(name)) return true;
  const { NEXTAUTH_URL } = env();
  return NEXTAUTH_URL !== undefined && new URL(NEXTAUTH_URL).hostname.toLowerCase() === name;
}
