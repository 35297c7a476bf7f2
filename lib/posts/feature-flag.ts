import { env } from "@/lib/env.ts";
import type { FeatureFlag } from "@/lib/http/feature-flag.ts";

/** Platform variants are rolled out per environment (CONTENT_VARIANTS_ENABLED). */
export const VARIANTS: FeatureFlag = {
  isEnabled: () => env().CONTENT_VARIANTS_ENABLED,
  message: "Platform variants are not enabled in this environment.",
  documented: "Platform variants are not enabled in this environment (CONTENT_VARIANTS_ENABLED=false).",
};
