import { ApiError } from "@/lib/http/errors.ts";

// Turns for heavy work (Ask, export, lists and search, transcription, rewrites, the compute pool),
// one mechanism for every such path, keyed by person (never by API key: one person's two keys, or
// their phone and their assistant, share their turns). Two rules:
// - per path, a person has at most `perPerson` tasks under way and `maxWaiting` waiting (more is
//   429 rate_limited at once); with `restFor`, their next one waits that long after the last ended,
//   so one person's back-to-back requests get a share of the server, not all of it;
// - paths that share a scarce thing (the compute pool's threads) name it as their `group`, with how
//   many tasks it runs at once: a free place goes to the next person in a ring (round robin), not to
//   the next request, so a person's one task waits behind at most one task of each person ahead of
//   it, however many the others sent.
// The request thread only waits here. Kept on globalThis: Next bundles lib/ more than once into one
// process, and one process keeps one count.

type Group = { atOnce: number; running: number; ring: Map<string, Waiter[]> };
type Path = { name: string; group: Group; perPerson: number; maxWaiting: number; restFor?: (elapsedMs: number) => number; running: Map<string, number>; resting: Set<string> };
type Waiter = { path: Path; start: () => void };
type Shared = { groups: Map<string, Group>; paths: Map<string, Path> };

const kept = globalThis as unknown as { voicedraftHeavyTurns?: Shared };
const shared = (): Shared => (kept.voicedraftHeavyTurns ??= { groups: new Map(), paths: new Map() });

export type HeavyTurns = <T>(person: string, task: () => Promise<T>, signal?: AbortSignal) => Promise<T>;
export type HeavyPathOptions = {
  perPerson?: number;
  maxWaiting?: number;
  restFor?: (elapsedMs: number) => number;
  /** The scarce thing this path's tasks share with other paths', and how many of their tasks it runs at once. */
  group?: { name: string; atOnce: number };
};

const mayStart = (path: Path, person: string) =>
  (path.running.get(person) ?? 0) < path.perPerson && !path.resting.has(person) && path.group.running < path.group.atOnce;

/** Starts a group's waiting tasks while it has room: the first person in its ring with a task that may start, who then goes to the ring's end. */
function next(group: Group) {
  for (;;) {
    let started = false;
    for (const [person, waiters] of group.ring) {
      const at = waiters.findIndex((w) => mayStart(w.path, person));
      if (at < 0) continue;
      const [waiter] = waiters.splice(at, 1);
      group.ring.delete(person);
      if (waiters.length) group.ring.set(person, waiters);
      waiter.start();
      started = true;
      break;
    }
    if (!started) return;
  }
}

const waitingOn = (path: Path, person: string) => (path.group.ring.get(person) ?? []).filter((w) => w.path === path).length;

/** The turns of one heavy path (`name` names it in errors and keeps one state per path in a process). */
export function heavyTurns(name: string, { perPerson = 1, maxWaiting = 16, restFor, group }: HeavyPathOptions = {}): HeavyTurns {
  const s = shared();
  let path = s.paths.get(name);
  if (!path) {
    const groupName = group?.name ?? `path: ${name}`;
    let g = s.groups.get(groupName);
    if (!g) s.groups.set(groupName, (g = { atOnce: group?.atOnce ?? Infinity, running: 0, ring: new Map() }));
    s.paths.set(name, (path = { name, group: g, perPerson, maxWaiting, restFor, running: new Map(), resting: new Set() }));
  }
  const p = path;
  const g = p.group;
  return <T>(person: string, task: () => Promise<T>, signal?: AbortSignal) =>
    new Promise<T>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const run = () => {
        signal?.removeEventListener("abort", leave);
        g.running += 1;
        p.running.set(person, (p.running.get(person) ?? 0) + 1);
        const started = performance.now();
        const done = () => {
          g.running -= 1;
          const left = (p.running.get(person) ?? 1) - 1;
          if (left) p.running.set(person, left);
          else p.running.delete(person);
          const rest = p.restFor?.(performance.now() - started) ?? 0;
          if (rest >= 1 && waitingOn(p, person)) {
            p.resting.add(person);
            setTimeout(() => {
              p.resting.delete(person);
              next(g);
            }, Math.min(rest, 5_000));
          }
          next(g);
        };
        task().then(
          (value) => (done(), resolve(value)),
          (err: unknown) => (done(), reject(err)),
        );
      };
      const waiter: Waiter = { path: p, start: run };
      const leave = () => {
        const waiters = g.ring.get(person);
        const at = waiters?.indexOf(waiter) ?? -1;
        if (at >= 0) waiters!.splice(at, 1);
        if (waiters && !waiters.length) g.ring.delete(person);
        reject(signal!.reason);
      };
      if (!waitingOn(p, person) && mayStart(p, person) && (g.atOnce === Infinity || !g.ring.size)) return run();
      if (waitingOn(p, person) >= p.maxWaiting) {
        return reject(
          new ApiError("rate_limited", `You have ${p.maxWaiting} ${name} waiting to start; wait for some to end. Try again in 2 s.`, { headers: { "Retry-After": "2" } }),
        );
      }
      signal?.addEventListener("abort", leave, { once: true });
      const waiters = g.ring.get(person);
      if (waiters) waiters.push(waiter);
      else g.ring.set(person, [waiter]);
      next(g);
    });
}

/** What is under way and waiting, all paths together (for tests and health). */
export function heavyTurnsSize(): { running: number; waiting: number } {
  const groups = [...shared().groups.values()];
  return { running: groups.reduce((n, g) => n + g.running, 0), waiting: groups.reduce((n, g) => n + [...g.ring.values()].reduce((m, w) => m + w.length, 0), 0) };
}
