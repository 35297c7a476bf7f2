import http from "node:http";
import type { AddressInfo } from "node:net";

export type ChatRequest = {
  model: string;
  system: string;
  /** The first user message: the note, when the ask is a task on a note (lib/writer/prompts/note.ts). */
  user: string;
  /** The last user message: the task on the note (the same as `user` when there is one message). */
  task: string;
  /** The request's response_format (json_schema with the schema, json_object), if any. */
  responseFormat?: { type: string; json_schema?: { name?: string; schema?: unknown } };
  stream: boolean;
  authorization: string | null;
};
/** `content`: the whole answer (streamed in word-sized chunks when the request streams). */
export type ChatReply = { status?: number; content?: string; delayMs?: number; chunkDelayMs?: number; headers?: Record<string, string> };

/**
 * A real OpenAI-compatible chat-completions server on loopback. `reply` decides each answer;
 * every request is recorded. Stands in for OpenAI, Ollama, vLLM or llama.cpp's server in tests:
 * answers whole or streamed (SSE chunks, then `data: [DONE]`), lists its models.
 */
export async function startChatServer(reply: (req: ChatRequest, n: number) => ChatReply | Promise<ChatReply>) {
  const requests: ChatRequest[] = [];
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const part of req) body += part;
    if (req.method === "GET" && req.url?.endsWith("/models")) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data: [{ id: "stand-in", object: "model" }] }));
      return;
    }
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    const parsed = JSON.parse(body) as { model: string; stream?: boolean; response_format?: ChatRequest["responseFormat"]; messages: { role: string; content: string | { type: string; text?: string }[] }[] };
    const text = (role: string, last = false) => {
      const messages = parsed.messages.filter((m) => m.role === role);
      const content = (last ? messages.at(-1) : messages[0])?.content ?? "";
      return typeof content === "string" ? content : content.map((c) => c.text ?? "").join("");
    };
    const request: ChatRequest = {
      model: parsed.model,
      system: text("system"),
      user: text("user"),
      task: text("user", true),
      responseFormat: parsed.response_format,
      stream: parsed.stream === true,
      authorization: req.headers.authorization ?? null,
    };
    requests.push(request);
    const answer = await reply(request, requests.length);
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (res.destroyed) return;
    if ((answer.status ?? 200) !== 200) {
      res.writeHead(answer.status!, { "content-type": "application/json", ...answer.headers }).end(JSON.stringify({ error: { message: "no" } }));
      return;
    }
    const content = answer.content ?? "";
    if (!request.stream) {
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: "chatcmpl-test",
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: request.model,
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: "chatcmpl-test", object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: request.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: "assistant", content: "" }));
    for (const piece of content.match(/\S+\s*|\s+/g) ?? []) {
      if (res.destroyed) return;
      res.write(chunk({ content: piece }));
      if (answer.chunkDelayMs) await new Promise((r) => setTimeout(r, answer.chunkDelayMs));
    }
    res.write(chunk({}, "stop"));
    res.end("data: [DONE]\n\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
