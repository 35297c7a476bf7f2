import path from "node:path";
import type { LanguageModelV2, LanguageModelV2CallOptions, LanguageModelV2StreamPart } from "@ai-sdk/provider";
import { liveWorkRunning } from "@/lib/live-work.ts";
import { generateLocally, type LocalGeneration } from "@/lib/writer/local/runtime.ts";

// The model on this machine as an AI SDK language model (LanguageModelV2, the SDK's interface for
// custom providers): lib/writer/writer.ts's generateText, generateObject, streamText and
// streamObject call it as they call a remote server, and the AI SDK validates its answers against
// the zod schema the same way. A JSON answer is generated under a grammar made from the request's
// JSON schema (node-llama-cpp's createGrammarForJsonSchema), so it always parses; the schema is
// also told to the model in words, since a grammar constrains the form, not what goes in it.

const ANSWER_TOKENS = 1024;
const LIVE_YIELD_MAX_MS = 60_000;
const LIVE_YIELD_POLL_MS = 250;

/**
 * Writing is background work: while a live recording is heard (its captions keep pace with
 * someone speaking), a generation waits before it starts, at most a minute
 * (lib/transcription/recognizers/priority.ts puts live work first the same way).
 */
async function yieldToLiveRecognition(signal?: AbortSignal): Promise<void> {
  const until = Date.now() + LIVE_YIELD_MAX_MS;
  while (liveWorkRunning() && Date.now() < until && !signal?.aborted) await new Promise((r) => setTimeout(r, LIVE_YIELD_POLL_MS));
}

type Timing = { timeoutMs: number; onStart?: () => void };

function generationOf(options: LanguageModelV2CallOptions, { timeoutMs, onStart }: Timing): LocalGeneration {
  const system: string[] = [];
  const messages: LocalGeneration["messages"] = [];
  for (const message of options.prompt) {
    if (message.role === "system") system.push(message.content);
    else if (message.role === "user" || message.role === "assistant") {
      const text = message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      messages.push({ role: message.role, text });
    }
  }
  const format = options.responseFormat;
  const jsonSchema = format?.type === "json" ? (format.schema ?? { type: "object" }) : undefined;
  if (jsonSchema) system.push(`Answer with one JSON object of this JSON schema, and nothing else:\n${JSON.stringify(jsonSchema)}`);
  return {
    system: system.join("\n\n"),
    messages,
    jsonSchema,
    maxTokens: options.maxOutputTokens ?? ANSWER_TOKENS,
    temperature: options.temperature ?? 0,
    signal: options.abortSignal,
    timeoutMs,
    before: yieldToLiveRecognition,
    onStart,
  };
}

const usageOf = (answer: { inputTokens: number; outputTokens: number }) => ({
  inputTokens: answer.inputTokens,
  outputTokens: answer.outputTokens,
  totalTokens: answer.inputTokens + answer.outputTokens,
});

/** The language model that writes with the GGUF file `file` (loaded on first use). */
export function localLanguageModel(file: string, timing: Timing): LanguageModelV2 {
  return {
    specificationVersion: "v2",
    provider: "local-model",
    modelId: path.basename(file, ".gguf"),
    supportedUrls: {},
    async doGenerate(options) {
      const answer = await generateLocally(file, generationOf(options, timing));
      return { content: [{ type: "text", text: answer.text }], finishReason: answer.finishReason, usage: usageOf(answer), warnings: [] };
    },
    async doStream(options) {
      let stream!: ReadableStreamDefaultController<LanguageModelV2StreamPart>;
      const parts = new ReadableStream<LanguageModelV2StreamPart>({ start: (controller) => void (stream = controller) });
      stream.enqueue({ type: "stream-start", warnings: [] });
      stream.enqueue({ type: "text-start", id: "0" });
      generateLocally(file, { ...generationOf(options, timing), onText: (delta) => stream.enqueue({ type: "text-delta", id: "0", delta }) }).then(
        (answer) => {
          stream.enqueue({ type: "text-end", id: "0" });
          stream.enqueue({ type: "finish", finishReason: answer.finishReason, usage: usageOf(answer) });
          stream.close();
        },
        (error: unknown) => {
          stream.enqueue({ type: "error", error });
          stream.close();
        },
      );
      return { stream: parts };
    },
  };
}
