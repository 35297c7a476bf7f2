// A route handler on a node:http request, as Next runs it: the body streamed in and out, aborted when
// the client leaves. For tests that put route handlers behind real HTTP without building Next.
import type http from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { RouteHandler } from "@/lib/api/with-request.ts";

export async function answerWith(handler: RouteHandler, incoming: http.IncomingMessage, outgoing: http.ServerResponse, extraHeaders: Record<string, string> = {}) {
  const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host}`);
  const aborted = new AbortController();
  outgoing.once("close", () => outgoing.writableFinished || aborted.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  for (const [name, value] of Object.entries(extraHeaders)) if (!headers.has(name)) headers.set(name, value);
  const body = incoming.method === "GET" || incoming.method === "HEAD" ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
  const request = new Request(url, { method: incoming.method, headers, body, signal: aborted.signal, duplex: "half" } as RequestInit);
  const response = await handler(request, { params: Promise.resolve({}) });
  const out: http.OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => name !== "set-cookie" && (out[name] = value));
  // Each cookie its own header, as Next sends them (forEach would join them with commas).
  const cookies = response.headers.getSetCookie();
  if (cookies.length) out["set-cookie"] = cookies;
  outgoing.writeHead(response.status, out);
  if (!response.body) return void outgoing.end();
  await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream), outgoing).catch(() => outgoing.destroy());
}
