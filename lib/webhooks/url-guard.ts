import { lookup } from "node:dns/promises";
import { BlockList, isIP, isIPv6, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { env } from "@/lib/env.ts";
import { ApiError } from "@/lib/http/errors.ts";

// The SSRF guard of webhooks: a webhook URL may only lead to public addresses (and, with
// WEBHOOKS_ALLOW_PRIVATE=true, to loopback and private networks). Checked when the URL is saved and
// again at every delivery, on the addresses the request then connects to, so a name that later
// resolves elsewhere (DNS rebinding) is refused too. The ranges come from ipaddr.js.

/** Resolves a host name to its addresses (all of them: any refused one refuses the URL). */
export type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
let resolver: Resolver = systemResolver;

/** Tests answer names themselves (a rebinding name); returns a function that restores the system's resolver. */
export function useResolver(next: Resolver): () => void {
  resolver = next;
  return () => void (resolver = systemResolver);
}

// Cloud metadata and platform services outside link-local, refused whatever the setting.
const METADATA_ADDRESSES = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200", "168.63.129.16", "192.0.0.192", "fd00:ec2::254"]);
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal"]);
// Allowed only with WEBHOOKS_ALLOW_PRIVATE=true.
const PRIVATE_RANGES = new Set(["loopback", "private", "uniqueLocal", "carrierGradeNat"]);
// IPv4-compatible IPv6 (::/96, deprecated by RFC 4291) has no range in ipaddr.js, so ::7f00:1 read
// as public unicast while a stack may still route it to 127.0.0.1. Like NAT64 (64:ff9b::/96),
// 6to4 (2002::/16) and Teredo, which ipaddr.js does name, it hides an IPv4 address, so all of them
// are refused whatever the setting; IPv4-mapped (::ffff:0:0/96) is checked as the IPv4 address it
// carries (ipaddr.process). Node's BlockList matches ::/96, as ipaddr.js reads ::8.8.8.8 as
// ::ffff:8.8.8.8 where Node (which connects) reads ::808:808.
const IPV4_COMPATIBLE = new BlockList();
IPV4_COMPATIBLE.addSubnet("::", 96, "ipv6");

export class WebhookAddressError extends Error {}

/** Why an address may not be called, or null when it may. */
export function refusedAddress(address: string, allowPrivate: boolean): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const ip = ipaddr.process(address); // ::ffff:10.0.0.1 is checked as 10.0.0.1
  const normalized = ip.toNormalizedString();
  if (METADATA_ADDRESSES.has(ip.toString()) || METADATA_ADDRESSES.has(normalized)) return `${address} is a cloud metadata address`;
  const range = rangeOf(address, ip);
  if (range === "unicast") return null;
  if (PRIVATE_RANGES.has(range)) {
    return allowPrivate ? null : `${address} is a ${describe(range)} address (allowed only with WEBHOOKS_ALLOW_PRIVATE=true)`;
  }
  return `${address} is a ${describe(range)} address`;
}

function rangeOf(address: string, ip: ipaddr.IPv4 | ipaddr.IPv6): string {
  const asWritten = ipaddr.parse(address).range(); // before ipaddr.process: :: and ::1 are themselves
  const compatible = isIPv6(address) && asWritten !== "unspecified" && asWritten !== "loopback" && IPV4_COMPATIBLE.check(address, "ipv6");
  return compatible ? "ipv4Compatible" : ip.range();
}

function describe(range: string): string {
  const names: Record<string, string> = {
    loopback: "loopback",
    private: "private network",
    uniqueLocal: "unique-local",
    carrierGradeNat: "shared (carrier-grade NAT)",
    linkLocal: "link-local",
    unspecified: "unspecified",
    multicast: "multicast",
    broadcast: "broadcast",
    ipv4Compatible: "deprecated IPv4-compatible IPv6 (an IPv4 address inside)",
    rfc6052: "NAT64 (an IPv4 address inside)",
    "6to4": "6to4 (an IPv4 address inside)",
    teredo: "Teredo (an IPv4 address inside)",
    rfc6145: "IPv4-translated (an IPv4 address inside)",
  };
  return names[range] ?? `reserved (${range})`;
}

/**
 * The URL's host without IPv6 brackets, lower case, and without the trailing dots of a fully
 * qualified name: `localhost.` is `localhost` to DNS, and passed the check when compared as typed.
 */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "").replace(/\.+$/, "").toLowerCase();
}

/** Refuses a URL that is not http(s), or whose host is a refused name or literal address. */
function checkUrlShape(url: URL, allowPrivate: boolean): void {
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new WebhookAddressError("The URL must start with https:// or http://.");
  const host = hostOf(url);
  if (METADATA_NAMES.has(host)) throw new WebhookAddressError(`${host} is a cloud metadata name.`);
  if ((host === "localhost" || host.endsWith(".localhost")) && !allowPrivate) {
    throw new WebhookAddressError(`${host} is this machine (allowed only with WEBHOOKS_ALLOW_PRIVATE=true).`);
  }
  if (ipaddr.isValid(host)) {
    const why = refusedAddress(host, allowPrivate);
    if (why) throw new WebhookAddressError(`${why}.`);
  }
}

/**
 * The addresses a delivery may connect to for this URL, every one of them checked; throws a
 * WebhookAddressError naming the first refused one (or when the name does not resolve).
 */
export function resolveWebhookAddresses(rawUrl: string): Promise<string[]> {
  return resolveAllowedAddresses(rawUrl, env().WEBHOOKS_ALLOW_PRIVATE);
}

/**
 * The same guard for any request this server makes to an address someone else chose (an OAuth
 * client's metadata document, say): with allowPrivate false, public addresses only.
 */
export async function resolveAllowedAddresses(rawUrl: string, allowPrivate: boolean): Promise<string[]> {
  const url = new URL(rawUrl);
  checkUrlShape(url, allowPrivate);
  const host = hostOf(url);
  if (ipaddr.isValid(host)) return [host];
  let addresses: string[];
  try {
    addresses = await resolver(host);
  } catch {
    throw new WebhookAddressError(`${host} could not be resolved.`);
  }
  if (!addresses.length) throw new WebhookAddressError(`${host} could not be resolved.`);
  for (const address of addresses) {
    const why = refusedAddress(address, allowPrivate);
    if (why) throw new WebhookAddressError(`${host} resolves to ${why}.`);
  }
  return addresses;
}

/**
 * A URL a webhook may be saved with: 400 webhook_url_not_allowed when it is refused. A name that
 * does not resolve now is accepted (it is checked again at every delivery).
 */
export async function assertWebhookUrlAllowed(rawUrl: string): Promise<void> {
  try {
    await resolveWebhookAddresses(rawUrl);
  } catch (err) {
    if (!(err instanceof WebhookAddressError)) throw err;
    if (err.message.endsWith("could not be resolved.")) return;
    throw new ApiError("webhook_url_not_allowed", `This webhook URL is not allowed: ${err.message}`, {
      details: [{ path: "url", message: err.message }],
    });
  }
}

/** Connects only to the addresses the guard checked (no second lookup a rebinding name could answer differently). */
export function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, entries);
    else callback(null, entries[0].address, entries[0].family);
  }) as unknown as LookupFunction;
}
