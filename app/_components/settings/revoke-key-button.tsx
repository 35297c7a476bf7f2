"use client";

import { useTransition } from "react";

export function RevokeKeyButton({ id, name, revoke }: { id: string; name: string; revoke: (id: string) => Promise<void> }) {
  const [pending, startTransition] = useTransition();
  return (
    <button
      type="button"
      className="danger"
      disabled={pending}
      aria-label={`Revoke the key ${name}`}
      onClick={() => {
        if (confirm(`Revoke the key "${name}"? Programs using it stop working at once.`)) startTransition(() => revoke(id));
      }}
    >
      Revoke
    </button>
  );
}
