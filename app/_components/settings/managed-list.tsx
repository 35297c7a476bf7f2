"use client";

import type { ReactNode } from "react";
import { Pencil, Trash2 } from "lucide-react";
import { Badge, Button, Notice } from "@/app/_ui/index.ts";
import styles from "../posts/posts.module.css";

// Settings → Channels lists two kinds of things the same way (channels and styles): a row each, an editor in a
// sheet, and a confirmation before deleting one, which posts may still be using.

/** One row: the name and what it is, a badge, and Edit when it can be edited. */
export function ManagedRow({ name, detail, badge, onEdit, testId }: { name: string; detail: ReactNode; badge?: string; onEdit?: () => void; testId: string }) {
  return (
    <li className={`card ${styles.cardHead}`} data-testid={testId}>
      <span className={styles.cardTitle}>
        <span className={styles.cardName}>{name}</span>
        <span>{detail}</span>
      </span>
      {badge && <Badge>{badge}</Badge>}
      {onEdit && (
        <Button variant="secondary" onClick={onEdit} aria-label={`Edit ${name}`}>
          <Pencil size={18} aria-hidden="true" /> Edit
        </Button>
      )}
    </li>
  );
}

/**
 * Asks before deleting: what deleting means, and once the server said posts use it (`inUse`), why it stays and
 * the way out instead of the delete button (`instead`; without one the button is disabled).
 */
export function ConfirmDelete(props: {
  name: string;
  kind: string;
  explanation: string;
  inUse: string | null;
  error: string | null;
  instead?: ReactNode;
  onDelete: () => void;
  onKeep: () => void;
}) {
  const { name, kind, explanation, inUse, error, instead, onDelete, onKeep } = props;
  return (
    <div className="stack" data-testid={`delete-${kind}`}>
      <p>
        <strong>Delete “{name}”?</strong>
      </p>
      {inUse ? (
        <Notice tone="warning" role="alert">
          {inUse}
        </Notice>
      ) : (
        <p className="muted">{explanation}</p>
      )}
      {error && <Notice tone="danger">{error}</Notice>}
      {inUse && instead ? (
        instead
      ) : (
        <Button variant="danger" block onClick={onDelete} disabled={inUse !== null}>
          <Trash2 size={18} aria-hidden="true" /> Delete {kind}
        </Button>
      )}
      <Button variant="ghost" block onClick={onKeep}>
        Keep it
      </Button>
    </div>
  );
}
