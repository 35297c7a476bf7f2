import { ApiError } from "@/lib/http/errors.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// A cookie rides along on cross-site requests; a Bearer key does not. So cookie-authenticated
// unsafe requests must come from our own pages: the browser's Sec-Fetch-Site, or else Origin.
export function assertSameOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const site = req.headers.get("sec-fetch-site");
  if (site === "same-origin") return;
  const origin = req.headers.get("origin");
  if (!site && origin && origin === ownOrigin(req)) return;
  throw new ApiError(
    "cross_site_request",
    "Requests signed in with a browser session must come from this site's own pages; programs use an API key.",
  );
}

function ownOrigin(req: Request): string {
  const url = new URL(req.url);
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? url.host;
  const proto = req.headers.get("x-forwarded-proto") ?? url.protocol.replace(":", "");
  return `${proto}://${host}`;
}
