import { CleanUpError, type CleanUpInput, type CleanUp } from "@/lib/clean-up/types.ts";
import { cleanUpPrompt } from "@/lib/writer/prompts/clean-up.ts";
import { writeText } from "@/lib/writer/writer.ts";

/** The clean-up by the writer (lib/writer): its server, timeout and circuit breaker; its own retries (per chunk, then the queue's). */
export const writerCleanUp: CleanUp = {
  name: "openai",
  async clean({ text, spellings, signal }: CleanUpInput) {
    const outcome = await writeText({ ...cleanUpPrompt({ text, spellings }), signal, retryBusy: false });
    if (outcome.ok) return outcome.value;
    const message = `${outcome.reason[0].toUpperCase()}${outcome.reason.slice(1)}.`;
    if (outcome.kind === "refused" || outcome.kind === "unconfigured") throw new CleanUpError("optimizer_unavailable", message, false);
    if (outcome.kind === "down" || outcome.kind === "skipped") throw new CleanUpError("optimizer_unavailable", message, true);
    throw new CleanUpError("optimizer_failed", message, true);
  },
};
