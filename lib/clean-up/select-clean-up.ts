import { localOptimizer } from "@/lib/clean-up/rules-clean-up.ts";
import { writerOptimizer } from "@/lib/clean-up/writer-clean-up.ts";
import type { Optimizer } from "@/lib/clean-up/types.ts";
import { writerFor } from "@/lib/writer/providers.ts";

/** The optimizer a workflow was created with (its name is stored on the workflow; "openai" is the writer's). */
export function optimizerNamed(name: string): Optimizer {
  return name === "openai" ? writerOptimizer : localOptimizer;
}

/** The clean-up's optimizer as a new workflow stores it, or null when the clean-up is off (lib/writer/providers.ts decides). */
export function configuredOptimizer(): "local" | "openai" | null {
  const by = writerFor("clean-up");
  return by === "off" ? null : by === "model" ? "openai" : "local";
}
