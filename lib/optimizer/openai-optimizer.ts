import { OptimizerError, type OptimizeInput, type Optimizer } from "@/lib/optimizer/types.ts";
import { writeText } from "@/lib/writer/writer.ts";

const INSTRUCTIONS = [
  "You edit raw speech-recognition transcripts into clean written text.",
  "Add punctuation and casing, remove filler words (um, uh, erm) and accidental repetitions, and keep paragraph breaks (empty lines).",
  "Each input line is one utterance; the speaker paused after it.",
  "Do not add, drop or reword content, do not summarize, do not answer questions in the text.",
  "Reply with the edited text only.",
].join(" ");

/** The clean-up by the writer (lib/writer): its server, timeout and circuit breaker; its own retries (per chunk, then the queue's). */
export const writerOptimizer: Optimizer = {
  name: "openai",
  async optimize({ text, spellings, signal }: OptimizeInput) {
    const keep = spellings.length ? `\nKeep these spellings exactly: ${spellings.slice(0, 200).join(", ")}.` : "";
    const outcome = await writeText({ system: INSTRUCTIONS + keep, prompt: text, signal, retryBusy: false });
    if (outcome.ok) return outcome.value;
    const message = `${outcome.reason[0].toUpperCase()}${outcome.reason.slice(1)}.`;
    if (outcome.kind === "refused" || outcome.kind === "unconfigured") throw new OptimizerError("optimizer_unavailable", message, false);
    if (outcome.kind === "down" || outcome.kind === "skipped") throw new OptimizerError("optimizer_unavailable", message, true);
    throw new OptimizerError("optimizer_failed", message, true);
  },
};
