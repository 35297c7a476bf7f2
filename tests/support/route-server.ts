// Serves some of the app's route handlers over real HTTP without building Next: a peer for tests
// that need a real server (the OpenAI SDK, the openai engine). Prints "listening <port>" when ready.
import http from "node:http";
import { POST as openAiTranscriptions } from "@/app/v1/audio/transcriptions/route.ts";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { GET as listDictionary } from "@/app/api/v1/dictionary/route.ts";
import type { RouteHandler } from "@/lib/api/with-request.ts";
import { answerWith } from "@/tests/support/node-bridge.ts";

const routes: Record<string, RouteHandler> = {
  "POST /v1/audio/transcriptions": openAiTranscriptions,
  "POST /transcribe": transcribe,
  "GET /api/v1/dictionary": listDictionary,
};

const server = http.createServer((incoming, outgoing) => {
  const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host}`);
  const handler = routes[`${incoming.method} ${url.pathname}`];
  if (!handler) return void outgoing.writeHead(404).end();
  answerWith(handler, incoming, outgoing).catch(() => outgoing.destroy());
});

server.listen(0, "127.0.0.1", () => {
  console.log(`listening ${(server.address() as { port: number }).port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
