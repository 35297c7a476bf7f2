import ipaddr from "ipaddr.js";
import { publicOrigin } from "@/lib/http/public-origin.ts";

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
