import { ApiError } from "@/lib/http/errors.ts";

// Page cursors are opaque to clients: the last returned sort key, base64url-encoded.

export const encodeCursor = (key: string) => Buffer.from(key, "utf8").toString("base64url");

/** The sort key inside a cursor; 400 when the cursor is not one this API returned. */
export function decodeCursor(cursor: string, isKey: (key: string) => boolean = () => true): string {
  const key = Buffer.from(cursor, "base64url").toString("utf8");
  if (!key || key.includes("\0") || encodeCursor(key) !== cursor || !isKey(key)) {
    throw new ApiError("validation_failed", "The cursor is not one this API returned.", {
      details: [{ path: "cursor", message: "invalid cursor" }],
    });
  }
  return key;
}
