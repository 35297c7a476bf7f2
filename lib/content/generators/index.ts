import { env } from "@/lib/env.ts";
import { localGenerator } from "@/lib/content/generators/local.ts";
import { openAiGenerator } from "@/lib/content/generators/openai.ts";
import type { Generator } from "@/lib/content/generators/types.ts";

/** The generator this deployment uses (CONTENT_GENERATOR=local|openai). */
export function currentGenerator(): Generator {
  return env().CONTENT_GENERATOR === "openai" ? openAiGenerator : localGenerator;
}
