import { CleanUpError, CleanUpRefused, type CleanUpInput, type CleanUp } from "@/lib/clean-up/types.ts";
import { cleanUpPrompt } from "@/lib/writer/prompts/clean-up.ts";
import { answerTokens } from "@/lib/writer/prompts/answer-tokens.ts";
import { writeText } from "@/lib/writer/writer.ts";

/** The clean-up by the writer (lib/writer): its server, timeout and circuit breaker; its own retries (per chunk, then the queue's). */
export const writerCleanUp: CleanUp = {
  name: "openai",
  async clean({ text, spellings, signal, key }: CleanUpInput) {
    // The same words, punctuated: a little longer than what was heard, never 1,024 tokens for a sentence.
    const maxTokens = answerTokens(Math.ceil(text.length * 1.2), { max: 16_384 });
    // The check every model output passes, as text only: the guard (clean-up-guard.ts) holds its words to what was said.
    const check = { what: "clean-up", source: text, textOnly: true };
    const outcome = await writeText({ ...cleanUpPrompt({ text, spellings }), signal, retryBusy: false, maxTokens, task: "clean-up", key, check });
    if (outcome.ok) return outcome.value;
    // Said after "the writer's clean-up was not used:" (run-clean-up.ts), as the guard's reasons are: "it had …".
    if (outcome.kind === "unusable") throw new CleanUpRefused(outcome.reason.replace(/^.*?'s clean-up /, "it "));
    const message = `${outcome.reason[0].toUpperCase()}${outcome.reason.slice(1)}.`;
    if (outcome.kind === "refused" || outcome.kind === "unconfigured") throw new CleanUpError("optimizer_unavailable", message, false);
    if (outcome.kind === "down" || outcome.kind === "skipped") throw new CleanUpError("optimizer_unavailable", message, true);
    throw new CleanUpError("optimizer_failed", message, true);
  },
};
