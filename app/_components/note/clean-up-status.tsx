import { Badge } from "@/app/_ui/index.ts";
import type { Optimization } from "@/app/_lib/api.ts";

// The clean-up's state, in words a person uses; never the engine or the state's name.
const LABEL: Record<Optimization["status"], { text: string; tone: "info" | "success" | "warning"; title?: string }> = {
  pending: { text: "Cleaning up soon", tone: "info" },
  running: { text: "Cleaning up", tone: "info" },
  completed: { text: "Cleaned up", tone: "success" },
  // Short: a badge never wraps, and a note's row at 360 px holds it beside the date.
  failed: { text: "Clean-up failed", tone: "warning", title: "The clean-up failed: the note shows the recognized text" },
};

export function CleanUpStatus({ optimization }: { optimization?: Pick<Optimization, "status" | "progress"> | null }) {
  if (!optimization) return null;
  const { status, progress } = optimization;
  const percent = status === "running" && progress.chunks_total > 0 ? ` ${Math.round((100 * progress.chunks_done) / progress.chunks_total)}%` : "";
  return (
    <Badge tone={LABEL[status].tone} title={LABEL[status].title} data-testid="optimization-status">
      {LABEL[status].text}
      {percent}
    </Badge>
  );
}
