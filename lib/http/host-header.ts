import { ApiError } from "@/lib/http/errors.ts";

// RFC 9110 §7.2: Host is uri-host [":" port], once. The names this server answers are DNS names
// (underscores too, as container names have them), IPv4 addresses and bracketed IPv6 ones: a Host
// with a space, "#", "?", ";" or "/" named no origin, and Next, the OAuth server and the public
// origin (lib/http/public-origin.ts) each broke on it in their own way (500 or 503, no body).

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
