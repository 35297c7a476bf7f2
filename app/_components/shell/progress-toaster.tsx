"use client";

import { useRouter } from "next/navigation";
import { useEffect, useSyncExternalStore } from "react";
import { useToast } from "@/app/_ui/index.ts";
import { clearProgress, isCardShown, onProgress, progressStage } from "@/app/_lib/recording/recording-progress.ts";

/** When a note becomes ready while the user is on another page: a toast with "Open". */
export function ProgressToaster() {
  const stage = useSyncExternalStore(onProgress, progressStage, () => null);
  const toast = useToast();
  const router = useRouter();
  useEffect(() => {
    if (!stage || isCardShown()) return;
    if (stage.kind === "done") {
      clearProgress();
      toast("Your note is ready.", { label: "Open", onClick: () => router.push(stage.href) });
    } else if (stage.kind === "failed") {
      clearProgress();
      toast(`A recording could not be turned into text: ${stage.message}`);
    }
  }, [stage, toast, router]);
  return null;
}
