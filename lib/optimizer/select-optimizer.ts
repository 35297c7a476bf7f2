import { env } from "@/lib/env.ts";
import { localOptimizer } from "@/lib/optimizer/local-optimizer.ts";
import { writerOptimizer } from "@/lib/optimizer/openai-optimizer.ts";
import type { Optimizer } from "@/lib/optimizer/types.ts";
import { writerSettings } from "@/lib/writer/writer-settings.ts";

/** The optimizer a workflow was created with (its name is stored on the workflow; "openai" is the writer's). */
export function optimizerNamed(name: string): Optimizer {
  return name === "openai" ? writerOptimizer : localOptimizer;
}

/**
 * The configured optimizer's name, or null when OPTIMIZER=off. `auto` (the default): the writer
 * when one is set up, else the offline rules; `writer` and its older name `openai` ask the writer.
 */
export function configuredOptimizer(): "local" | "openai" | null {
  const { OPTIMIZER } = env();
  if (OPTIMIZER === "off") return null;
  if (OPTIMIZER === "auto") return writerSettings() ? "openai" : "local";
  return OPTIMIZER === "local" ? "local" : "openai";
}
