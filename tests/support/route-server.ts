// Serves some of the app's route handlers over real HTTP without building Next: a peer for tests
// that need a real server (the OpenAI SDK, the openai engine). Prints "listening <port>" when ready.
import http from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { POST as openAiTranscriptions } from "@/app/v1/audio/transcriptions/route.ts";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { GET as listDictionary } from "@/app/api/v1/dictionary/route.ts";
import type { RouteHandler } from "@/lib/api/with-request.ts";

const routes: Record<string, RouteHandler> = {
  "POST /v1/audio/transcriptions": openAiTranscriptions,
  "POST /transcribe": transcribe,
  "GET /api/v1/dictionary": listDictionary,
};

/** A route handler on a node:http request, as Next runs it: the body streamed in and out, aborted when the client leaves. */
async function answer(handler: RouteHandler, incoming: http.IncomingMessage, outgoing: http.ServerResponse, url: URL) {
  const aborted = new AbortController();
  outgoing.once("close", () => outgoing.writableFinished || aborted.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  const body = incoming.method === "GET" || incoming.method === "HEAD" ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
  const request = new Request(url, { method: incoming.method, headers, body, signal: aborted.signal, duplex: "half" } as RequestInit);
  const response = await handler(request, { params: Promise.resolve({}) });
  const out: http.OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => name !== "set-cookie" && (out[name] = value));
  outgoing.writeHead(response.status, out);
  if (!response.body) return void outgoing.end();
  await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream), outgoing).catch(() => outgoing.destroy());
}

const server = http.createServer((incoming, outgoing) => {
  const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host}`);
  const handler = routes[`${incoming.method} ${url.pathname}`];
  if (!handler) return void outgoing.writeHead(404).end();
  answer(handler, incoming, outgoing, url).catch(() => outgoing.destroy());
});

server.listen(0, "127.0.0.1", () => {
  console.log(`listening ${(server.address() as { port: number }).port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
