import { env } from "@/lib/env.ts";
import { ApiError } from "@/lib/http/errors.ts";

/** Platform variants are rolled out per environment (CONTENT_VARIANTS_ENABLED). */
export function requireVariantsEnabled(): void {
  if (!env().CONTENT_VARIANTS_ENABLED) {
    throw new ApiError("feature_disabled", "Platform variants are not enabled in this environment.");
  }
}
