import { jobQueue } from "@/lib/jobs/queue.ts";
import type { JobDefinition } from "@/lib/jobs/define-job.ts";

/**
 * The rows a lease sweep looks at (an `OR` for a Prisma `where`): running with a heartbeat that
 * stopped before `staleBefore` (or never beat), or pending and not picked up since.
 */
export function staleLeases(staleBefore: Date) {
  return [
    { status: "running", OR: [{ heartbeatAt: { lt: staleBefore } }, { heartbeatAt: null, updatedAt: { lt: staleBefore } }] },
    { status: "pending", updatedAt: { lt: staleBefore } },
  ];
}

const WAITING = new Set(["created", "retry"]);

/**
 * The lease sweep shared by background work on the queue. For each stale row: left alone while its
 * job is still queued (a worker will get to it); otherwise `claim` takes it — an update matching
 * the row only as it was read, so one recoverer wins — its job is cancelled if a dead worker still
 * holds it, and `redispatch` queues it again (false: given up instead). Returns the rows requeued.
 */
export async function recoverStale<Row extends { jobId: string | null }>(
  job: JobDefinition,
  rows: Row[],
  claim: (row: Row) => Promise<boolean>,
  redispatch: (row: Row) => Promise<boolean>,
): Promise<Row[]> {
  const recovered: Row[] = [];
  const boss = rows.length ? await jobQueue(job) : undefined;
  for (const row of rows) {
    const queued = row.jobId ? await boss!.getJobById(job.name, row.jobId).catch(() => null) : null;
    if (queued && WAITING.has(queued.state)) continue;
    if (!(await claim(row))) continue;
    if (queued?.state === "active") await boss!.cancel(job.name, queued.id).catch(() => undefined);
    if (await redispatch(row)) recovered.push(row);
  }
  return recovered;
}
