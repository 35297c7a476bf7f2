import path from "node:path";
import type { LanguageModelV2, LanguageModelV2CallOptions, LanguageModelV2StreamPart } from "@ai-sdk/provider";
import { liveWorkRunning } from "@/lib/live-work.ts";
import { generateLocally, type LocalAnswer, type LocalGeneration } from "@/lib/writer/local/runtime.ts";
import { noteThatFits } from "@/lib/writer/prompts/long-note.ts";

// The model on this machine as an AI SDK language model (LanguageModelV2, the SDK's interface for
// custom providers): lib/writer/writer.ts's generateText, generateObject, streamText and
// streamObject call it as they call a remote server, and the AI SDK validates its answers against
// the zod schema the same way. A JSON answer is generated under a grammar made from the request's
// JSON schema (node-llama-cpp's createGrammarForJsonSchema), so it always parses. The schema itself
// is not written into the prompt (it cost a third of a note's prompt tokens, and the grammar
// enforces it); one line after the task names the fields and what goes in each, since a grammar
// constrains the form, not the content. The system prompt and the note stay the same for every
// task of a note, so the model reads them once (runtime.ts).

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

/**
 * The answer's fields in one line, by name: `Answer in JSON: "title", "posts".` The grammar holds the
 * answer to the schema, and each task's instruction says what goes in the fields; their descriptions
 * (for a writer server's JSON mode) repeated what the task said, and were read for every task.
 */
function fieldsLine(schema: object): string {
  const properties = (schema as { properties?: Record<string, unknown> }).properties ?? {};
  const fields = Object.keys(properties).map((name) => `"${name}"`);
  return fields.length ? `Answer in JSON: ${fields.join(", ")}.` : "Answer in JSON.";
}

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
  const task = messages.at(-1);
  if (jsonSchema && task?.role === "user") task.text = `${task.text}\n${fieldsLine(jsonSchema)}`;
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
    // A long note's JSON tasks (insights, posts, rewrites) are written from its main sentences; the
    // clean-up and Ask's answers (plain text: all of the note, or citing it) are not.
    ...(jsonSchema && { fitNote: noteThatFits }),
  };
}

const usageOf = (answer: LocalAnswer) => ({
  inputTokens: answer.inputTokens,
  outputTokens: answer.outputTokens,
  totalTokens: answer.inputTokens + answer.outputTokens,
  // The prompt's tokens the model held from the task before (the note's, read once).
  cachedInputTokens: answer.inputTokens - answer.evaluatedTokens,
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
