import { env } from "@/lib/env.ts";
import { localOptimizer } from "@/lib/optimizer/local-optimizer.ts";
import { openAiOptimizer } from "@/lib/optimizer/openai-optimizer.ts";
import type { Optimizer } from "@/lib/optimizer/types.ts";

/** The optimizer a workflow was created with (its name is stored on the workflow). */
export function optimizerNamed(name: string): Optimizer {
  if (name === "openai") {
    const { OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_CHAT_MODEL } = env();
    return openAiOptimizer({ baseUrl: OPENAI_BASE_URL, apiKey: OPENAI_API_KEY, model: OPENAI_CHAT_MODEL });
  }
  return localOptimizer;
}

/** The configured optimizer's name, or null when OPTIMIZER=off. */
export function configuredOptimizer(): "local" | "openai" | null {
  const { OPTIMIZER } = env();
  return OPTIMIZER === "off" ? null : OPTIMIZER;
}
