// next-auth names its session cookie with a __Secure- prefix when the site is served over HTTPS.
export const SESSION_COOKIE_NAMES = ["__Secure-next-auth.session-token", "next-auth.session-token"] as const;

/** The session token from a Cookie header (API routes) or a cookie store (server components). */
export function sessionTokenFrom(get: (name: string) => string | undefined): string | undefined {
  for (const name of SESSION_COOKIE_NAMES) {
    const value = get(name);
    if (value) return value;
  }
  return undefined;
}

export function parseCookieHeader(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!cookies.has(name)) cookies.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
  }
  return cookies;
}
