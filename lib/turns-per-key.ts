// Turns per key (a user, say): at most `perKey` of a key's tasks run at once, the rest wait in
// order. With `restFor`, a turn is kept that much longer after its task ends (its answer is not
// held): a key whose tasks come back to back then has the server for a share of the time, not all
// of it. A key with nothing running, resting or waiting is forgotten, so the map holds only the
// keys at work (bounded by the requests in flight). Kept on globalThis by its name: Next bundles lib/ more
// than once into one process, and one process must keep one count.

type Queue = { running: number; waiting: (() => void)[] };
const kept = globalThis as unknown as { voicedraftTurnsPerKey?: Map<string, Map<string, Queue>> };

export type TurnsPerKey = <T>(key: string, task: () => Promise<T>) => Promise<T>;

export function turnsPerKey(name: string, perKey: number, { restFor }: { restFor?: (elapsedMs: number) => number } = {}): TurnsPerKey {
  const all = (kept.voicedraftTurnsPerKey ??= new Map());
  let queues = all.get(name);
  if (!queues) all.set(name, (queues = new Map()));
  const byKey = queues;
  return async (key, task) => {
    let q = byKey.get(key);
    if (!q) byKey.set(key, (q = { running: 0, waiting: [] }));
    const queue = q;
    if (queue.running >= perKey) await new Promise<void>((start) => queue.waiting.push(start));
    else queue.running++;
    const started = performance.now();
    const passOn = () => {
      const next = queue.waiting.shift();
      if (next) next(); // the turn passes on: running stays the same
      else if (--queue.running === 0) byKey.delete(key);
    };
    try {
      return await task();
    } finally {
      const rest = restFor?.(performance.now() - started) ?? 0;
      if (rest >= 1 && queue.waiting.length) setTimeout(passOn, Math.min(rest, 5_000));
      else passOn();
    }
  };
}
