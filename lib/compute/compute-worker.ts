import { rankPassages } from "@/lib/ask/rank-passages.ts";

// The compute pool's worker (lib/compute/pool.ts): the pure work on large text that must not hold
// the request thread, one task a name. Each takes and returns plain data (structured clone).
// Bundled to node_modules/.cache/voicedraft/compute-worker.mjs by scripts/build-launcher.mjs; run
// from this source through compute-worker-tsx.mjs under tsx (tests, `npm run dev`).

export const tasks = { rankPassages };

export type Tasks = typeof tasks;
export type ComputeTask = keyof Tasks;
export type ComputeRequest = { [K in ComputeTask]: { task: K; input: Parameters<Tasks[K]>[0] } }[ComputeTask];

export default function runTask(request: ComputeRequest): unknown {
  return tasks[request.task](request.input);
}
