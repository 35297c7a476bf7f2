import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { Piscina } from "piscina";
import runTask, { type ComputeTask, type Tasks } from "@/lib/compute/compute-worker.ts";
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

/** The worker as bundled (npm start), or its source where this process runs under tsx (tests, `npm run dev`). */
function workerFile(): { filename: string; execArgv: string[] } | null {
  if (process.execArgv.some((arg) => /\btsx\b/.test(arg))) {
    return { filename: path.join(process.cwd(), "lib", "compute", "compute-worker-tsx.mjs"), execArgv: [] };
  }
  const built = path.join(process.cwd(), "node_modules", ".cache", "voicedraft", "compute-worker.mjs");
  return existsSync(built) ? { filename: built, execArgv: [] } : null;
}

const kept = globalThis as unknown as { voicedraftComputePool?: Piscina | null };

function pool(): Piscina | null {
  if (kept.voicedraftComputePool !== undefined) return kept.voicedraftComputePool;
  const worker = workerFile();
  if (!worker) log.warn("the compute pool's worker is not built (npm install builds it): heavy work runs on the request thread");
  const threads = worker ? new Piscina({ ...worker, minThreads: 0, maxThreads: COMPUTE_THREADS, idleTimeout: 30_000, niceIncrement: 10 }) : null;
  // A worker that fails outside a task (it could not load): logged; the task's own promise is rejected.
  threads?.on("error", (err: unknown) => log.error("a compute worker failed", { error: err instanceof Error ? err.message : String(err) }));
  kept.voicedraftComputePool = threads;
  return threads;
}

/** Runs `task` on `input` in the pool, in `person`'s turn (on this thread only when the worker is missing). */
export async function compute<K extends ComputeTask>(person: string, task: K, input: Parameters<Tasks[K]>[0]): Promise<ReturnType<Tasks[K]>> {
  const threads = pool();
  const request = { task, input } as Parameters<typeof runTask>[0];
  return (await computeTurns(person, async () => (threads ? await threads.run(request) : runTask(request)))) as ReturnType<Tasks[K]>;
}

/** Ends the pool's threads (tests, shutdown). */
export async function closeComputePool(): Promise<void> {
  const threads = kept.voicedraftComputePool;
  kept.voicedraftComputePool = undefined;
  await threads?.destroy();
}
