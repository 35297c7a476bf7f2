import Link from "next/link";
import type { ReactNode } from "react";
import { AppNav } from "@/app/_components/app-nav.tsx";
import { ServiceWorkerRegistration } from "@/app/_components/service-worker-registration.tsx";
import { SignOutButton } from "@/app/_components/sign-out-button.tsx";
import { requireUser } from "@/lib/auth/current-user.ts";

// The signed-in app: every page below needs a session (else /sign-in).
export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  return (
    <div className="vd">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <Link className="brand" href="/record">
          Voicedraft
        </Link>
        <AppNav />
        <span className="muted" title="Signed in as">
          {user.email}
        </span>
        <SignOutButton />
      </header>
      <main id="main">{children}</main>
      <ServiceWorkerRegistration />
    </div>
  );
}
