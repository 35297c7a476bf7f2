import { isIPv4, isIPv6 } from "node:net";
import { env } from "@/lib/env.ts";

type HeaderSource = { get(name: string): string | null };

// An IPv6 user controls at least a /64, so per-address limits count the /64.
function ipv6Prefix(address: string): string {
  const [head, tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

function normalize(candidate: string | undefined): string | undefined {
  const address = candidate?.trim().replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!address) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (isIPv4(address)) return address;
  if (isIPv6(address)) return ipv6Prefix(address);
  return undefined;
}

/**
 * The client's address, for per-address limits. Behind TRUST_PROXY: the last X-Forwarded-For
 * entry (the one our proxy appended). Otherwise the one Next puts there from the socket (the
 * client's own X-Forwarded-For is replaced by the socket's address: lib/http/front-door.ts).
 */
export function clientIp(headers: HeaderSource): string {
  const entries = (headers.get("x-forwarded-for") ?? "").split(",");
  const chosen = env().TRUST_PROXY ? entries.at(-1) : entries[0];
  return normalize(chosen) ?? "unknown";
}
