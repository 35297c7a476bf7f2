import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { Piscina } from "piscina";
import type { ComputeTask } from "@/lib/compute/task.ts";
import { log } from "@/lib/log.ts";
import { heavyTurns } from "@/lib/turns/heavy-turns.ts";

// The compute pool: pure work on large text (Ask's passages and ranking, …) runs on worker threads
// (piscina), so the request thread only waits and every other request keeps being answered. One
// thread fewer than the cores (at least one): the request thread keeps a core of its own. The
// threads run at a lower priority (nice +10, Linux), so a burst of heavy work takes the CPU that
// requests leave rather than theirs. A thread starts on the first task and ends after 30 s idle,
// so an idle server holds none. The threads are taken in turns by person (lib/turns/heavy-turns.ts):
// a free thread goes to the next person waiting, so one person's many tasks never queue another's
// behind all of them.


export const COMPUTE_THREADS = Math.max(1, availableParallelism() - 1);
const computeTurns = heavyTurns("computations", { perPerson: COMPUTE_THREADS, maxWaiting: 16, group: { name: "the compute pool", atOnce: COMPUTE_THREADS } });

/**
 * The worker as bundled (npm start), or from its source through tsx where this process runs under
 * tsx (tests, `npm run dev`) or the bundle is missing (tsx is a dependency: it is always there).
 */
function workerFile(): string {
  const built = path.join(process.cwd(), "node_modules", ".cache", "voicedraft", "compute-worker.mjs");
  const underTsx = process.execArgv.some((arg) => /\btsx\b/.test(arg));
  if (!underTsx && existsSync(built)) return built;
  if (!underTsx) log.warn("the compute pool's worker is not built (npm install builds it): it runs from its source");
  return path.join(process.cwd(), "scripts", "compute-worker-tsx.mjs");
}

type Kept = { pool?: Piscina; broken?: boolean; onBroken?: Promise<void> };
const kept = globalThis as unknown as { voicedraftComputePool?: Kept };
const state = (): Kept => (kept.voicedraftComputePool ??= {});

function pool(): Piscina {
  const s = state();
  if (s.pool) return s.pool;
  const threads = new Piscina({ filename: workerFile(), minThreads: 0, maxThreads: COMPUTE_THREADS, idleTimeout: 30_000, niceIncrement: 10 });
  // A worker that cannot start (its file missing or broken) fails outside any task, and the tasks
  // given to it would wait for ever: the pool is then given up, and its tasks run on this thread.
  s.onBroken = new Promise((resolve) =>
    threads.on("error", (err: unknown) => {
      log.error("a compute worker failed: the compute pool's work runs on the request thread", { error: err instanceof Error ? err.message : String(err) });
      s.broken = true;
      resolve();
    }),
  );
  s.pool = threads;
  return threads;
}

/** Runs `task` on `input` in the pool, in `person`'s turn (on this thread when the pool cannot run). */
export async function compute<I, O>(person: string, task: ComputeTask<I, O>, input: I): Promise<O> {
  return computeTurns(person, async () => {
    if (state().broken) return task.run(input);
    const threads = pool();
    const done = await Promise.race([threads.run({ task: task.name, input }).then((value: O) => ({ value })), state().onBroken!.then(() => null)]);
    return done ? done.value : task.run(input);
  });
}

/** Ends the pool's threads (tests, shutdown). */
export async function closeComputePool(): Promise<void> {
  const threads = kept.voicedraftComputePool?.pool;
  kept.voicedraftComputePool = undefined;
  await threads?.destroy();
}
