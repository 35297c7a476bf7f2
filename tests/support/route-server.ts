// Serves the app's route handlers over real HTTP without building Next: a peer for tests that
// need a real server (the OpenAI SDK, the openai engine). Prints "listening <port>" when ready.
import http from "node:http";
import { Readable } from "node:stream";
import { POST as openAiTranscriptions } from "@/app/v1/audio/transcriptions/route.ts";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { GET as listDictionary } from "@/app/api/v1/dictionary/route.ts";
import type { RouteHandler } from "@/lib/api/with-request.ts";

const routes: Record<string, RouteHandler> = {
  "POST /v1/audio/transcriptions": openAiTranscriptions,
  "POST /transcribe": transcribe,
  "GET /api/v1/dictionary": listDictionary,
};

const server = http.createServer(async (incoming, outgoing) => {
  const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host}`);
  const handler = routes[`${incoming.method} ${url.pathname}`];
  if (!handler) {
    outgoing.writeHead(404).end();
    return;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (typeof value === "string") headers.set(name, value);
  }
  const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD";
  const request = new Request(url, {
    method: incoming.method,
    headers,
    body: hasBody ? (Readable.toWeb(incoming) as ReadableStream) : undefined,
    duplex: "half",
  } as RequestInit);
  const response = await handler(request, { params: Promise.resolve({}) });
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  // Piped as it comes, so streamed answers (text/event-stream) arrive event by event.
  if (!response.body) return void outgoing.end();
  const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  outgoing.on("close", () => body.destroy());
  body.on("error", () => outgoing.destroy());
  body.pipe(outgoing);
});

server.listen(0, "127.0.0.1", () => {
  console.log(`listening ${(server.address() as { port: number }).port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
