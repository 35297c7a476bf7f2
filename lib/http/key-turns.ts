import type http from "node:http";
import { ApiError } from "@/lib/http/errors.ts";

// One API key's requests take turns: at most `perKey` of them are handled at once in this process,
// the others wait at the front door, in order, for one of them to end. All requests of a server
// share one event loop and one database: 40 clients of one key kept 40 requests under way, and
// at each minute's start (the key's limit renewed) 160 reads a second were answered, so that a
// live recording's Stop on the same server waited behind their turns: 3.9 s against 0.5 s alone
// (bench:live-load). A key cannot take the whole server; each other key, and each browser session,
// keeps its own turns, and a live recording's requests take none. A key whose queue is full
// (`maxWaiting`) is answered 429 at once.

type Queue = { running: number; waiting: (() => void)[] };

/** The API's own routes, which all take a key, but for its description (no key needed). */
export const isKeyedApiPath = (pathname: string) => pathname.startsWith("/api/v1/") && pathname !== "/api/v1/openapi.json";

/**
 * The Bearer key of a request that takes turns, as its header sent it: the API's keyed routes but
 * a live recording's (its PATCHes, captions and Stop are live work, first; an account has at most
 * LIVE_RECORDINGS_OPEN_MAX open, and each holds a request waiting for captions). Undefined for any
 * other request.
 */
export function bearerOfApiRequest(req: http.IncomingMessage): string | undefined {
  const authorization = req.headers.authorization;
  if (!authorization || !/^Bearer\s/i.test(authorization)) return undefined;
  const pathname = (req.url ?? "").split("?", 1)[0];
  return isKeyedApiPath(pathname) && !pathname.startsWith("/api/v1/live-recordings") ? authorization.trim() : undefined;
}

export type KeyTurns = (key: string, res: http.ServerResponse, start: () => void) => ApiError | undefined;

/** Turns per key (`perKey` at once, `maxWaiting` waiting): `start` now or later, or a 429 for a full queue. */
export function createKeyTurns({ perKey, maxWaiting }: { perKey: number; maxWaiting: number }): KeyTurns {
  const queues = new Map<string, Queue>();
  const drop = (key: string, queue: Queue) => {
    if (!queue.running && !queue.waiting.length && queues.get(key) === queue) queues.delete(key);
  };
  return (key, res, start) => {
    let queue = queues.get(key);
    if (!queue) queues.set(key, (queue = { running: 0, waiting: [] }));
    const q = queue;
    const run = () => {
      q.running += 1;
      // The turn ends with the answer sent, or the connection gone.
      res.once("close", () => {
        q.running -= 1;
        const next = q.waiting.shift();
        if (next) next();
        else drop(key, q);
      });
      start();
    };
    if (q.running < perKey) return void run();
    if (q.waiting.length >= maxWaiting) {
      drop(key, q);
      return new ApiError("rate_limited", `This API key has ${perKey + maxWaiting} requests under way; wait for some to end. Try again in 1 s.`, {
        headers: { "Retry-After": "1" },
      });
    }
    const waiting = () => {
      res.off("close", gaveUp);
      run();
    };
    // A client that gives up while it waits leaves the queue.
    const gaveUp = () => {
      const at = q.waiting.indexOf(waiting);
      if (at >= 0) q.waiting.splice(at, 1);
      drop(key, q);
    };
    res.once("close", gaveUp);
    q.waiting.push(waiting);
    return undefined;
  };
}
