import { rankPassagesTask } from "@/lib/ask/rank-passages.ts";
import { judgeCleanUpTask, wordChangesTask } from "@/lib/clean-up/clean-up-guard.ts";
import { heardSuggestionsTask } from "@/lib/dictionary/heard-suggestions.ts";
import type { ComputeTask } from "@/lib/compute/task.ts";

// The compute pool's worker (lib/compute/pool.ts): every task it runs, by name. Bundled to
// node_modules/.cache/voicedraft/compute-worker.mjs with the launcher (scripts/build-launcher.mjs);
// run from this source through compute-worker-tsx.mjs under tsx (tests, `npm run dev`).

const TASKS: ComputeTask<never, unknown>[] = [rankPassagesTask, heardSuggestionsTask, judgeCleanUpTask, wordChangesTask];
const byName = new Map(TASKS.map((task) => [task.name, task]));

export default function runTask({ task, input }: { task: string; input: never }): unknown {
  const found = byName.get(task);
  if (!found) throw new Error(`no compute task named ${task}`);
  return found.run(input);
}
