import type { Optimization } from "@/lib/web/api.ts";

const LABEL = { pending: "Optimization queued", running: "Optimizing", completed: "Optimized", failed: "Optimization failed" } as const;

export function OptimizationStatus({ optimization }: { optimization?: Pick<Optimization, "status" | "progress"> | null }) {
  if (!optimization) return null;
  const { status, progress } = optimization;
  return (
    <span className="muted" data-testid="optimization-status">
      {LABEL[status]}
      {status === "running" && progress.chunks_total > 0 && ` (${progress.chunks_done}/${progress.chunks_total})`}
    </span>
  );
}
