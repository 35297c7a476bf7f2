import type http from "node:http";
import { ApiError } from "@/lib/http/errors.ts";

// One API key's requests take turns: at most `perKey` of them are handled at once in this process,
// the others wait at the front door, in order, for one of them to end. All requests of a server
// share one event loop and one database: 40 clients of one key kept 40 requests under way, and
// at each minute's start (the key's limit renewed) 160 reads a second were answered, so that a
// live recording's Stop on the same server waited behind their turns: 3.9 s against 0.5 s alone
// (bench:live-load). A key cannot take the whole server; each other key, and each browser session,
// keeps its own turns, and a live recording's requests take none. A key whose queue is full
// (`maxWaiting`) is answered 429 at once. A key's requests also start no faster than its limit
// spread over the minute, beyond a burst (apiPace): the minute's 1,200 come 20 a second, not all at
// its start.

type Queue = {
  running: number;
  waiting: (() => void)[];
  /** When the key's next request would start on its pace (performance.now() ms): see createKeyTurns. */
  due: number;
  /** The next start the pace allows, or the queue's end once the key is back on its pace. */
  timer?: ReturnType<typeof setTimeout>;
};

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

/** A key's pace: on average `perSecond` requests start, and up to `burst` at once beyond it. */
export type Pace = { perSecond: number; burst: number };

/**
 * The pace of a key whose limit is `perMinute` requests a minute: that many spread over the
 * minute, and a burst of 2 seconds' worth, at least 40. One key's 40 clients were answered as fast
 * as the server could (160 a second) each time their minute's limit renewed, and took the cores
 * from live recordings stopping just then: Stop → text 1.7–2.0 s against 0.7 s alone
 * (bench:live-load, 2026-11-29). Paced, the same minute's 1,200 come 20 a second.
 */
export function apiPace(perMinute: number): Pace | undefined {
  return perMinute ? { perSecond: perMinute / 60, burst: Math.max(40, Math.ceil(perMinute / 30)) } : undefined;
}

/**
 * Turns per key (`perKey` at once, `maxWaiting` waiting): `start` now or later, or a 429 for a full
 * queue. With a `pace`, a key's requests also start no faster than it (as nginx's `limit_req` with a
 * burst delays what goes beyond a rate): a generic cell-rate algorithm, whose `due` is when the
 * key's next request would start were it exactly on pace; it may start `burst - 1` intervals early.
 */
export function createKeyTurns({ perKey, maxWaiting, pace }: { perKey: number; maxWaiting: number; pace?: Pace }): KeyTurns {
  const queues = new Map<string, Queue>();
  const interval = pace ? 1000 / pace.perSecond : 0;
  const tolerance = pace ? (pace.burst - 1) * interval : 0;
  /** Milliseconds until the key's pace lets one more request start: 0, now. */
  const untilPace = (q: Queue, now: number) => Math.max(0, q.due - tolerance - now);
  const drop = (key: string, q: Queue) => {
    if (q.running || q.waiting.length || q.timer || queues.get(key) !== q) return;
    // A key ahead of its pace is remembered until it is back on it (then it starts afresh, alike).
    const ahead = q.due - performance.now();
    if (ahead <= 0) return void queues.delete(key);
    q.timer = setTimeout(() => {
      q.timer = undefined;
      drop(key, q);
    }, Math.ceil(ahead));
    q.timer.unref();
  };
  const run = (key: string, q: Queue, res: http.ServerResponse, start: () => void) => {
    q.due = Math.max(q.due, performance.now()) + interval;
    q.running += 1;
    // The turn ends with the answer sent, or the connection gone.
    res.once("close", () => {
      q.running -= 1;
      next(key, q);
    });
    start();
  };
  /** Starts the waiting requests that may start now; a timer for the next when the pace holds them. */
  const next = (key: string, q: Queue) => {
    while (q.waiting.length && q.running < perKey) {
      const wait = untilPace(q, performance.now());
      if (wait > 0) {
        clearTimeout(q.timer);
        q.timer = setTimeout(() => {
          q.timer = undefined;
          next(key, q);
        }, Math.ceil(wait));
        return;
      }
      q.waiting.shift()!();
    }
    drop(key, q);
  };
  return (key, res, start) => {
    let queue = queues.get(key);
    if (!queue) queues.set(key, (queue = { running: 0, waiting: [], due: 0 }));
    const q = queue;
    if (!q.waiting.length && q.running < perKey && !untilPace(q, performance.now())) return void run(key, q, res, start);
    if (q.waiting.length >= maxWaiting) {
      drop(key, q);
      return new ApiError("rate_limited", `This API key has ${maxWaiting} requests waiting to start; wait for some to end. Try again in 1 s.`, {
        headers: { "Retry-After": "1" },
      });
    }
    const waiting = () => {
      res.off("close", gaveUp);
      run(key, q, res, start);
    };
    // A client that gives up while it waits leaves the queue.
    const gaveUp = () => {
      const at = q.waiting.indexOf(waiting);
      if (at >= 0) q.waiting.splice(at, 1);
      drop(key, q);
    };
    res.once("close", gaveUp);
    q.waiting.push(waiting);
    next(key, q);
    return undefined;
  };
}
