import type { Principal } from "@/lib/auth/resolve-principal.ts";
import { ApiError } from "@/lib/http/errors.ts";

/** Refuses an API key where only the person, signed in to the app, may act (deleting the account). */
export function requireSession(principal: Principal): void {
  if (principal.keyId !== null) {
    throw new ApiError("session_required", "Only the signed-in app can do this, not an API key: use Settings → Your data.");
  }
}
