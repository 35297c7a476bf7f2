import { offlineInsightsWriter } from "@/lib/insights/offline-insights.ts";
import type { InsightsWriter } from "@/lib/insights/types.ts";

/**
 * The writer insights are written with. Offline for now; a model-backed writer plugs in here
 * (composeInsights falls back to the offline writer when it fails).
 */
export function selectInsightsWriter(): InsightsWriter {
  return offlineInsightsWriter;
}
