import { createHash } from "node:crypto";

/**
 * How a title and body are stored and hashed: Unicode NFC, line endings as "\n"; the title is
 * also trimmed. Stored values are already canonical, so a client hashes exactly what it received.
 */
export function canonicalTitle(title: string): string {
  return title.normalize("NFC").replace(/\r\n?/g, "\n").trim();
}

export function canonicalBody(body: string): string {
  return body.normalize("NFC").replace(/\r\n?/g, "\n");
}

/**
 * content_hash: lowercase hex SHA-256 of the UTF-8 bytes of `title + "\n" + body` (both canonical).
 * A title never contains a line break, so the first "\n" always separates the two.
 */
export function contentHash(title: string, body: string): string {
  return createHash("sha256")
    .update(`${canonicalTitle(title)}\n${canonicalBody(body)}`, "utf8")
    .digest("hex");
}
