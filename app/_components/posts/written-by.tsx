import type { ContentItem } from "@/app/_lib/posts/content.ts";
import styles from "./posts.module.css";

// Who wrote a post, in one short line under it (issue 69): the model on this machine, your writer,
// or the rules from your note without a model; while the model is on its way, how far along it
// is. Why no model wrote it, when something failed, waits in a "Details" fold.

type Generation = NonNullable<ContentItem["generation"]>;

const WHO: Record<NonNullable<Generation["written_by"]>, string> = {
  "local-model": "Written by the model on this machine",
  writer: "Written by your writer",
  offline: "Arranged from your note without a model",
  external: "Written by another program",
};

function onItsWay(model: Generation["model_on_its_way"]): string {
  if (!model) return "";
  if (model.state === "waiting") return "; the model for this machine could not download yet";
  return model.percent === null ? "; the model for this machine is on its way" : `; the model for this machine is on its way, ${model.percent} %`;
}

export function WrittenBy({ generation }: { generation: Generation | null }) {
  if (!generation?.written_by) return null;
  const offline = generation.written_by === "offline";
  const line = `${WHO[generation.written_by]}${offline ? onItsWay(generation.model_on_its_way) : ""}.`;
  if (!offline || !generation.offline_reason) {
    return (
      <p className={styles.offlineNote} data-testid="written-by">
        {line}
      </p>
    );
  }
  return (
    <details className={styles.writtenBy} data-testid="written-by">
      <summary>
        <span>{line}</span> <span className={styles.details}>Details</span>
      </summary>
      <p data-testid="written-offline">No model wrote it: {generation.offline_reason}.</p>
    </details>
  );
}
