import { after, beforeEach } from "node:test";
import { resetWriterState } from "@/lib/writer/writer.ts";
import { startChatServer, type ChatReply, type ChatRequest } from "@/tests/support/chat-server.ts";

/**
 * The writer of a test file: a stand-in chat server answering with `reply`, stopped after the
 * file; before each test its requests and the writer's breaker are forgotten. `env()` names it.
 */
export async function standInWriter(reply: (req: ChatRequest, n: number) => ChatReply | Promise<ChatReply>) {
  const chat = await startChatServer(reply);
  after(() => chat.close());
  beforeEach(() => {
    chat.requests.length = 0;
    resetWriterState();
  });
  const env = (vars: Record<string, string> = {}) => ({ WRITER_BASE_URL: chat.baseUrl, WRITER_MODEL: "stand-in-7b", WRITER_API_KEY: "sk-writer", ...vars });
  return { chat, env };
}
