import { Badge } from "@/app/_ui/index.ts";
import type { Optimization } from "@/app/_lib/api.ts";

// The clean-up's state, in words a person uses; never the engine or the state's name.
const LABEL = {
  pending: { text: "Cleaning up soon", tone: "info" },
  running: { text: "Cleaning up", tone: "info" },
  completed: { text: "Cleaned up", tone: "success" },
  failed: { text: "Clean-up failed: showing the recognized text", tone: "warning" },
} as const;

export function OptimizationStatus({ optimization }: { optimization?: Pick<Optimization, "status" | "progress"> | null }) {
  if (!optimization) return null;
  const { status, progress } = optimization;
  const percent = status === "running" && progress.chunks_total > 0 ? ` ${Math.round((100 * progress.chunks_done) / progress.chunks_total)}%` : "";
  return (
    <Badge tone={LABEL[status].tone} data-testid="optimization-status">
      {LABEL[status].text}
      {percent}
    </Badge>
  );
}
