import http from "node:http";
import type { AddressInfo } from "node:net";

export type ChatRequest = { model: string; system: string; user: string };
export type ChatReply = { status?: number; content?: string; delayMs?: number };

/**
 * A real OpenAI-compatible chat-completions server on loopback. `reply` decides each answer;
 * every request is recorded. Stands in for OpenAI, vLLM or llama.cpp's server in tests.
 */
export async function startChatServer(reply: (req: ChatRequest, n: number) => ChatReply | Promise<ChatReply>) {
  const requests: ChatRequest[] = [];
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const part of req) body += part;
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    const parsed = JSON.parse(body) as { model: string; messages: { role: string; content: string }[] };
    const request = {
      model: parsed.model,
      system: parsed.messages.find((m) => m.role === "system")?.content ?? "",
      user: parsed.messages.find((m) => m.role === "user")?.content ?? "",
    };
    requests.push(request);
    const answer = await reply(request, requests.length);
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if ((answer.status ?? 200) !== 200) {
      res.writeHead(answer.status!, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "no" } }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({ id: "chatcmpl-test", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: answer.content }, finish_reason: "stop" }] }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
