import { availableParallelism } from "node:os";
import { ApiError } from "@/lib/http/errors.ts";

// Turns for heavy work (Ask, export, lists and search, transcription, rewrites, hearing again),
// one mechanism for every such path, keyed by person (never by API key: one person's two keys or
// their phone and their assistant share their turns). Two rules:
// - per path, a person has at most `perPerson` tasks under way and `maxWaiting` waiting (more is
//   429 rate_limited at once); with `restFor`, their next one waits that long after the last ended,
//   so one person's back-to-back requests get a share of the server, not all of it;
// - across all paths, at most HEAVY_AT_ONCE tasks run, and a free turn goes to the next person in
//   a ring (round robin), not to the next request: a person's one task waits behind at most one
//   task of each person ahead of it, however many the others sent.
// The request thread only waits here; the computing itself runs in lib/compute's pool or the database.
// Kept on globalThis: Next bundles lib/ more than once into one process, and one process keeps one count.

/** Heavy tasks under way at once in this process, all paths together. */
export const HEAVY_AT_ONCE = Math.max(2, availableParallelism());

type Path = { name: string; perPerson: number; maxWaiting: number; restFor?: (elapsedMs: number) => number; running: Map<string, number>; resting: Set<string> };
type Waiter = { path: Path; start: () => void };
type Shared = { running: number; ring: Map<string, Waiter[]>; paths: Map<string, Path> };

const kept = globalThis as unknown as { voicedraftHeavyTurns?: Shared };
const shared = (): Shared => (kept.voicedraftHeavyTurns ??= { running: 0, ring: new Map(), paths: new Map() });

export type HeavyTurns = <T>(person: string, task: () => Promise<T>, signal?: AbortSignal) => Promise<T>;
export type HeavyPathOptions = { perPerson?: number; maxWaiting?: number; restFor?: (elapsedMs: number) => number };

const mayStart = (path: Path, person: string) => (path.running.get(person) ?? 0) < path.perPerson && !path.resting.has(person);

/** Starts waiting tasks while turns are free: the first person in the ring with a task that may start, who then goes to the ring's end. */
function next() {
  const s = shared();
  while (s.running < HEAVY_AT_ONCE) {
    let started = false;
    for (const [person, waiters] of s.ring) {
      const at = waiters.findIndex((w) => mayStart(w.path, person));
      if (at < 0) continue;
      const [waiter] = waiters.splice(at, 1);
      s.ring.delete(person);
      if (waiters.length) s.ring.set(person, waiters);
      waiter.start();
      started = true;
      break;
    }
    if (!started) return;
  }
}

const waitingOn = (path: Path, person: string) => (shared().ring.get(person) ?? []).filter((w) => w.path === path).length;

/** The turns of one heavy path (`name` names it in errors and keeps one state per path in a process). */
export function heavyTurns(name: string, { perPerson = 1, maxWaiting = 16, restFor }: HeavyPathOptions = {}): HeavyTurns {
  const s = shared();
  let path = s.paths.get(name);
  if (!path) s.paths.set(name, (path = { name, perPerson, maxWaiting, restFor, running: new Map(), resting: new Set() }));
  const p = path;
  return <T>(person: string, task: () => Promise<T>, signal?: AbortSignal) =>
    new Promise<T>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const run = () => {
        signal?.removeEventListener("abort", leave);
        s.running += 1;
        p.running.set(person, (p.running.get(person) ?? 0) + 1);
        const started = performance.now();
        const done = () => {
          s.running -= 1;
          const left = (p.running.get(person) ?? 1) - 1;
          if (left) p.running.set(person, left);
          else p.running.delete(person);
          const rest = p.restFor?.(performance.now() - started) ?? 0;
          if (rest >= 1 && waitingOn(p, person)) {
            p.resting.add(person);
            setTimeout(() => {
              p.resting.delete(person);
              next();
            }, Math.min(rest, 5_000));
          }
          next();
        };
        task().then(
          (value) => (done(), resolve(value)),
          (err: unknown) => (done(), reject(err)),
        );
      };
      const waiter: Waiter = { path: p, start: run };
      const leave = () => {
        const waiters = s.ring.get(person);
        const at = waiters?.indexOf(waiter) ?? -1;
        if (at >= 0) waiters!.splice(at, 1);
        if (waiters && !waiters.length) s.ring.delete(person);
        reject(signal!.reason);
      };
      if (s.running < HEAVY_AT_ONCE && !s.ring.size && mayStart(p, person)) return run();
      if (waitingOn(p, person) >= p.maxWaiting) {
        return reject(
          new ApiError("rate_limited", `You have ${p.maxWaiting} ${name} waiting to start; wait for some to end. Try again in 2 s.`, { headers: { "Retry-After": "2" } }),
        );
      }
      signal?.addEventListener("abort", leave, { once: true });
      const waiters = s.ring.get(person);
      if (waiters) waiters.push(waiter);
      else s.ring.set(person, [waiter]);
      next();
    });
}

/** What is under way and waiting (for tests and health). */
export function heavyTurnsSize(): { running: number; waiting: number } {
  const s = shared();
  return { running: s.running, waiting: [...s.ring.values()].reduce((n, w) => n + w.length, 0) };
}
