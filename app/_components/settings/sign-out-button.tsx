"use client";

import { LogOut } from "lucide-react";
import { signOut } from "next-auth/react";
import { Button } from "@/app/_ui/index.ts";
import { forgetCachedPages } from "@/app/_lib/service-worker.ts";
import { forgetSavedReads } from "@/app/_lib/api.ts";

export function SignOutButton() {
  return (
    <Button
      variant="secondary"
      onClick={async () => {
        await Promise.all([forgetCachedPages(), forgetSavedReads()]);
        await signOut({ callbackUrl: "/sign-in" });
      }}
    >
      <LogOut size={18} aria-hidden="true" />
      Sign out
    </Button>
  );
}
