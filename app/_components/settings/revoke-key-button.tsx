"use client";

import { useTransition } from "react";
import { revokeKeyAction } from "@/app/(app)/keys/actions.ts";

export function RevokeKeyButton({ id, name }: { id: string; name: string }) {
  const [pending, startTransition] = useTransition();
  return (
    <button
      type="button"
      className="danger"
      disabled={pending}
      aria-label={`Revoke the key ${name}`}
      onClick={() => {
        if (confirm(`Revoke the key "${name}"? Programs using it stop working at once.`)) startTransition(() => revokeKeyAction(id));
      }}
    >
      Revoke
    </button>
  );
}
