// A proxy in front of the real service that can fail the next requests on purpose: answer 503 or
// 429 itself, or forward the request and then cut the connection before the client sees the
// answer (the service did the work; the response was lost). It records what reached it.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Fault = "pass" | "lose-response" | { status: 429 | 503; retryAfter?: string } | "hang";

export type SeenRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  fault: Fault;
  /** The headers of the service's answer, when it was forwarded. */
  answer?: http.IncomingHttpHeaders;
};

export async function startFaultProxy(target: string) {
  const faults: Fault[] = [];
  const seen: SeenRequest[] = [];
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const fault = faults.shift() ?? "pass";
    const record: SeenRequest = { method: req.method!, path: req.url!, headers: req.headers, fault };
    seen.push(record);
    if (fault === "hang") return req.resume();
    if (typeof fault === "object") {
      req.resume();
      const body = JSON.stringify({ error: { code: "service_unavailable", message: "injected", request_id: "proxy-0001" } });
      res.writeHead(fault.status, { "content-type": "application/json", ...(fault.retryAfter && { "retry-after": fault.retryAfter }) });
      return res.end(body);
    }
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        record.answer = answer.headers;
        if (fault === "lose-response") {
          answer.resume();
          answer.on("end", () => res.socket?.destroy());
          return;
        }
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.socket?.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Faults for the next requests, in order; then requests pass. */
    fail(...next: Fault[]) {
      faults.push(...next);
    },
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
