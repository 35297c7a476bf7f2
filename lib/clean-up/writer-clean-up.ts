import { CleanUpError, type CleanUpInput, type CleanUp } from "@/lib/clean-up/types.ts";
import { cleanUpPrompt } from "@/lib/writer/prompts/clean-up.ts";
import { answerTokens } from "@/lib/writer/prompts/answer-tokens.ts";
import { writeText } from "@/lib/writer/writer.ts";

/** The clean-up by the writer (lib/writer): its server, timeout and circuit breaker; its own retries (per chunk, then the queue's). */
export const writerCleanUp: CleanUp = {
  name: "openai",
  async clean({ text, spellings, signal }: CleanUpInput) {
    // The same words, punctuated: a little longer than what was heard, never 1,024 tokens for a sentence.
    const maxTokens = answerTokens(Math.ceil(text.length * 1.2), { max: 16_384 });
    const outcome = await writeText({ ...cleanUpPrompt({ text, spellings }), signal, retryBusy: false, maxTokens });
    if (outcome.ok) return outcome.value;
    const message = `${outcome.reason[0].toUpperCase()}${outcome.reason.slice(1)}.`;
    if (outcome.kind === "refused" || outcome.kind === "unconfigured") throw new CleanUpError("optimizer_unavailable", message, false);
    if (outcome.kind === "down" || outcome.kind === "skipped") throw new CleanUpError("optimizer_unavailable", message, true);
    throw new CleanUpError("optimizer_failed", message, true);
  },
};
