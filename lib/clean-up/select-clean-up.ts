import { rulesCleanUp } from "@/lib/clean-up/rules-clean-up.ts";
import { writerCleanUp } from "@/lib/clean-up/writer-clean-up.ts";
import type { CleanUp } from "@/lib/clean-up/types.ts";
import { writerFor } from "@/lib/writer/providers.ts";

/** The clean-up a workflow was created with (its name is stored on the workflow; "openai" is the writer's). */
export function cleanUpNamed(name: string): CleanUp {
  return name === "openai" ? writerCleanUp : rulesCleanUp;
}

/** The clean-up's name as a new workflow stores it (its `optimizer` field), or null when the clean-up is off (lib/writer/providers.ts decides). */
export function configuredCleanUp(): "local" | "openai" | null {
  const by = writerFor("clean-up");
  return by === "off" ? null : by === "model" ? "openai" : "local";
}
