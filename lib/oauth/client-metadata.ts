import { errors } from "oidc-provider";

// What a client may register (issue 60): oidc-provider takes any http(s) redirect URI of a "web"
// client, so `http://evil.example/cb` was registered, shown on the consent page, and sent the code
// there in the clear. OAuth 2.1 (§2.3.1, §8.4.2) and RFC 8252 allow https, http only to the
// loopback address of the person's own computer, and a native app's private-use scheme. The
// library's own checks still run after these (a private-use scheme needs application_type
// "native"). Run through its documented hook, `extraClientMetadata.validator`, which sees every
// registration and every stored client as it is read, so a client kept before this rule is
// refused too.

/**
 * The properties checked here, in this order (the redirect URIs before the walk over every string).
 * post_logout_redirect_uris (RP-initiated logout, on in oidc-provider by default) are redirects
 * too, checked by the same rules (issue 66: the library took http anywhere for them).
 */
export const CHECKED_METADATA = ["redirect_uris", "post_logout_redirect_uris", "client_name"];
const REDIRECTS = new Set(["redirect_uris", "post_logout_redirect_uris"]);

// RFC 3986's characters, without "#" (a fragment is refused on its own): nothing a URL parser
// strips (a trailing newline, tabs) or reads two ways (a backslash, spaces).
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?[\]@!$&'()*+,;=%]+$/;
/** The hosts an http redirect URI may name (as WHATWG URL writes them): the person's own computer. */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["127.0.0.1", "[::1]", "localhost"]);
// Schemes a browser gives its own meaning to: no native app receives them.
const NOT_PRIVATE_USE = new Set(["ftp:", "ws:", "wss:", "file:", "javascript:", "vbscript:", "data:", "blob:", "about:"]);

/** Why this redirect URI is refused; undefined when it may be registered. */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.includes("#")) return "must not contain a fragment (#)";
  if (!URI_CHARACTERS.test(uri)) return "must be a URI of printable ASCII: no spaces, control characters or backslashes (percent-encode anything else)";
  const url = URL.parse(uri);
  if (!url) return "must be an absolute URI";
  if (url.protocol === "https:" || url.protocol === "http:") {
    const authority = /^https?:\/\/([^/?]+)/i.exec(uri)?.[1];
    if (!authority) return `must start with ${url.protocol}// and a host`;
    if (authority.includes("@")) return "must not carry a user name or password";
    if (url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)) {
      return "must use https; http is only for 127.0.0.1, [::1] or localhost (an app on the person's own computer)";
    }
    return undefined;
  }
  if (NOT_PRIVATE_USE.has(url.protocol)) return `must not use the ${url.protocol.slice(0, -1)} scheme`;
  if (url.username || url.password) return "must not carry a user name or password";
  return undefined;
}

// Letters that look alike in the fonts a consent page is read in: Cyrillic and Greek look-alikes of
// Latin letters, digits for letters, and i, l and 1 (one shape in many fonts).
const LOOK_ALIKES: Record<string, string> = {
  а: "a", в: "b", е: "e", ё: "e", к: "k", м: "m", н: "h", о: "o", р: "p", с: "c", т: "t", у: "y", х: "x",
  і: "i", ї: "i", ј: "j", ѕ: "s", ԁ: "d", ԛ: "q", ԝ: "w", ѵ: "v", ᴠ: "v",
  α: "a", β: "b", ε: "e", η: "n", ι: "i", κ: "k", ν: "v", ο: "o", ρ: "p", τ: "t", υ: "u", χ: "x", ω: "w",
  "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", l: "i", "|": "i", "!": "i", "@": "a", $: "s",
};

/** A name as a reader takes it in: compatibility forms, case, accents, look-alikes, spaces and punctuation folded away. */
export function nameSkeleton(name: string): string {
  const folded = name.normalize("NFKC").toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");
  return [...folded].map((c) => LOOK_ALIKES[c] ?? c).join("").replace(/[^\p{L}\p{N}]/gu, "");
}

const SITE_NAME = "Voicedraft";

// Text a consent page would show misleadingly: control and format characters (a right-to-left
// override reverses what follows), unassigned code points, line and paragraph separators.
const UNSHOWABLE = /[\p{C}\p{Zl}\p{Zp}]/u;
// What no stored text may hold: PostgreSQL's JSON refuses NUL (a 500 before), and a lone surrogate is mangled.
const UNSTORABLE = /[\p{Cc}\p{Cs}]/u;

function unstorablePath(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return UNSTORABLE.test(value) ? path : undefined;
  if (!value || typeof value !== "object") return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found = UNSTORABLE.test(key) ? `${path}${path && "."}(key)` : unstorablePath(child, `${path}${path && "."}${key}`);
    if (found) return found;
  }
  return undefined;
}

const invalidMetadata = (description: string) => new errors.InvalidClientMetadata(description);

function checkClientName(name: unknown, issuer: string): void {
  if (typeof name !== "string") return;
  if (UNSHOWABLE.test(name)) throw invalidMetadata("client_name must not contain control or formatting characters.");
  const skeleton = nameSkeleton(name);
  const taken = [SITE_NAME, new URL(issuer).hostname].map(nameSkeleton);
  if (skeleton && taken.includes(skeleton)) {
    throw invalidMetadata(`client_name must be the app's own name, not this site's (${SITE_NAME}): the person reads it on the consent page.`);
  }
}

/** extraClientMetadata.validator: throws the RFC 7591 error for metadata this server refuses. */
export function clientMetadataValidator(issuer: string) {
  return (_ctx: unknown, key: string, value: unknown, metadata: Record<string, unknown>): void => {
    if (REDIRECTS.has(key) && Array.isArray(value)) {
      for (const uri of value) {
        const problem = typeof uri === "string" ? redirectUriProblem(uri) : undefined;
        if (!problem) continue;
        const description = `${key}: ${JSON.stringify(uri)} ${problem}.`;
        // RFC 7591 names invalid_redirect_uri for redirect_uris only; any other field is invalid_client_metadata.
        if (key !== "redirect_uris") throw invalidMetadata(description);
        const refused = new errors.InvalidRedirectUri();
        refused.error_description = description;
        throw refused;
      }
    }
    if (key === "client_name") {
      const path = unstorablePath(metadata, "");
      if (path) throw invalidMetadata(`${path} must not contain NUL or other control characters.`);
      checkClientName(value, issuer);
    }
  };
}

/**
 * Whether a Client ID Metadata Document's URL may be fetched at all: https with a host name (an IP
 * address names no app) and no port but https's. Where it leads is checked when it is fetched
 * (lib/oauth/guarded-fetch.ts: public addresses only).
 */
export function clientIdUrlAllowed(id: string): boolean {
  const url = URL.parse(id);
  if (!url || url.protocol !== "https:" || url.port) return false;
  const host = url.hostname.replace(/\.+$/, "");
  return !/^\[|^[\d.]+$/.test(host) && host.includes(".");
}
