import { localGenerator } from "@/lib/posts/generators/local.ts";
import { writerGenerator } from "@/lib/posts/generators/writer.ts";
import type { Generator } from "@/lib/posts/generators/types.ts";
import { writerFor } from "@/lib/writer/providers.ts";

/** The writer when one is set up (lib/writer/providers.ts decides), else the offline generator. */
export function currentGenerator(): Generator {
  return writerFor("posts") === "model" ? writerGenerator : localGenerator;
}
