import { localGenerator } from "@/lib/content/generators/local.ts";
import { writerGenerator } from "@/lib/content/generators/writer.ts";
import type { Generator } from "@/lib/content/generators/types.ts";
import { writerFor } from "@/lib/writer/providers.ts";

/** The writer when one is set up (lib/writer/providers.ts decides), else the offline generator. */
export function currentGenerator(): Generator {
  return writerFor("posts") === "model" ? writerGenerator : localGenerator;
}
