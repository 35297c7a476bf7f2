import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook as Verifier } from "standardwebhooks";

// A webhook receiver on 127.0.0.1, started by the test: it answers what the test says and keeps
// what it received, whose signatures the Standard Webhooks reference library checks.

export type Received = { path: string; headers: IncomingHttpHeaders; body: string };
export type Answer = { status: number; body?: string; headers?: Record<string, string> };
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export async function startReceiver() {
  const received: Received[] = [];
  const answers = new Map<string, Answer[]>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const queue = answers.get(path) ?? [];
      const answer = (queue.length > 1 ? queue.shift() : queue[0]) ?? { status: 204 };
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    /** The answers for a path, in turn; the last one repeats. */
    answer: (path: string, ...list: Answer[]) => answers.set(path, list),
    at: (path: string) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits for a condition the queue brings about (the test runner's timeout is the limit, not a timed assertion). */
export async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The event a delivery carries, verified with `secret` by the reference library (throws when it does not verify). */
export function verify(secret: string, r: Received) {
  const headers = { "webhook-id": String(r.headers["webhook-id"]), "webhook-timestamp": String(r.headers["webhook-timestamp"]), "webhook-signature": String(r.headers["webhook-signature"]) };
  return new Verifier(secret).verify(r.body, headers) as Record<string, any>;
}
