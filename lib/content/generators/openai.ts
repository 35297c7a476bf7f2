import { env } from "@/lib/env.ts";
import { PLATFORM_LIMITS } from "@/lib/content/generators/platform-rules.ts";
import { generateLocally } from "@/lib/content/generators/local.ts";
import type { GenerationInput, Generator } from "@/lib/content/generators/types.ts";

// Any OpenAI-compatible chat-completions server rewrites the text for the platform and tone;
// the local rules then fit the rewrite to the platform (limits, thread split, hashtags), so a
// model that ignores the instructions still cannot produce an over-long post.

const TIMEOUT_MS = 120_000;

function prompt(input: GenerationInput): { system: string; user: string } {
  const limit = PLATFORM_LIMITS[input.platform];
  const lengthHint = { short: "very short: one paragraph", medium: "about half as long", full: "as complete as the original" }[
    input.preset.length
  ];
  const system =
    `You rewrite a note for ${input.platform} in a ${input.preset.tone} tone. Keep the author's facts and voice, ` +
    `use the note's language, write ${lengthHint ?? "naturally"}, separate paragraphs with blank lines. ` +
    (limit ? `Aim for ${input.preset.format === "thread" ? "paragraphs" : "a post"} under ${limit} characters. ` : "") +
    "Reply with the rewritten text only: no title line, no hashtags, no numbering, no commentary." +
    (input.title ? ` For context, the note's title is: ${input.title}` : "");
  return { system, user: input.body };
}

export const openAiGenerator: Generator = {
  name: "openai",
  async generate(input) {
    const { OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_CHAT_MODEL } = env();
    const { system, user } = prompt(input);
    const res = await fetch(`${OPENAI_BASE_URL.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(OPENAI_API_KEY && { Authorization: `Bearer ${OPENAI_API_KEY}` }) },
      body: JSON.stringify({
        model: OPENAI_CHAT_MODEL,
        temperature: 0.4,
        messages: [
          { role: "system", content: system },
          { role: "user", content: user },
        ],
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`The chat-completions server answered ${res.status}.`);
    const data = (await res.json().catch(() => null)) as { choices?: { message?: { content?: unknown } }[] } | null;
    const text = data?.choices?.[0]?.message?.content;
    if (typeof text !== "string" || !text.trim()) throw new Error("The chat-completions answer holds no text.");
    return generateLocally({ ...input, body: text, preset: { ...input.preset, length: "full" } });
  },
};
