"use client";

import { signOut } from "next-auth/react";
import { forgetCachedPages } from "@/lib/web/service-worker.ts";

export function SignOutButton() {
  return (
    <button
      type="button"
      className="link-button"
      onClick={async () => {
        await forgetCachedPages();
        await signOut({ callbackUrl: "/sign-in" });
      }}
    >
      Sign out
    </button>
  );
}
