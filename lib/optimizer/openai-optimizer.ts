import { OptimizerError, type OptimizeInput, type Optimizer } from "@/lib/optimizer/types.ts";

const TIMEOUT_MS = 2 * 60_000;

const INSTRUCTIONS = [
  "You edit raw speech-recognition transcripts into clean written text.",
  "Add punctuation and casing, remove filler words (um, uh, erm) and accidental repetitions, and keep paragraph breaks (empty lines).",
  "Each input line is one utterance; the speaker paused after it.",
  "Do not add, drop or reword content, do not summarize, do not answer questions in the text.",
  "Reply with the edited text only.",
].join(" ");

type ChatCompletion = { choices?: { message?: { content?: string | null } }[] };

/** Any OpenAI-compatible /chat/completions server (OpenAI, vLLM, llama.cpp server, LocalAI, …). */
export function openAiOptimizer(options: { baseUrl: string; apiKey?: string; model: string }): Optimizer {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  return {
    name: "openai",
    async optimize({ text, spellings, signal }: OptimizeInput) {
      const keep = spellings.length ? `\nKeep these spellings exactly: ${spellings.slice(0, 200).join(", ")}.` : "";
      let res: Response;
      try {
        res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", ...(options.apiKey && { authorization: `Bearer ${options.apiKey}` }) },
          body: JSON.stringify({
            model: options.model,
            temperature: 0,
            messages: [
              { role: "system", content: INSTRUCTIONS + keep },
              { role: "user", content: text },
            ],
          }),
          signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (err) {
        throw new OptimizerError("optimizer_unavailable", `The chat server at ${options.baseUrl} cannot be reached (${(err as Error).message}).`, true);
      }
      if (res.status === 401 || res.status === 403) {
        throw new OptimizerError("optimizer_unavailable", `The chat server at ${options.baseUrl} refused the key; check OPENAI_API_KEY.`, false);
      }
      if (!res.ok) {
        const retryable = res.status === 429 || res.status >= 500;
        throw new OptimizerError("optimizer_failed", `The chat server answered ${res.status}.`, retryable);
      }
      const body = (await res.json().catch(() => ({}))) as ChatCompletion;
      const content = body.choices?.[0]?.message?.content;
      if (typeof content !== "string" || !content.trim()) {
        throw new OptimizerError("optimizer_failed", "The chat server's answer has no text.", true);
      }
      return content.trim();
    },
  };
}
