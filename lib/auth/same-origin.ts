import { ApiError } from "@/lib/http/errors.ts";
import { publicOrigin } from "@/lib/http/public-origin.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// A cookie rides along on cross-site requests; a Bearer key does not. So cookie-authenticated
// unsafe requests must come from our own pages: the browser's Sec-Fetch-Site, or else Origin.
export function assertSameOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const site = req.headers.get("sec-fetch-site");
  if (site === "same-origin") return;
  const origin = req.headers.get("origin");
  if (!site && origin && origin === publicOrigin(req)) return;
  throw new ApiError(
    "cross_site_request",
    "Requests signed in with a browser session must come from this site's own pages; programs use an API key.",
  );
}
