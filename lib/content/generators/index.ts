import { localGenerator } from "@/lib/content/generators/local.ts";
import { writerGenerator } from "@/lib/content/generators/writer.ts";
import type { Generator } from "@/lib/content/generators/types.ts";
import { writerSettings } from "@/lib/writer/writer-settings.ts";

/** The writer when one is set up (WRITER_BASE_URL, or its older aliases), else the offline generator. */
export function currentGenerator(): Generator {
  return writerSettings() ? writerGenerator : localGenerator;
}
