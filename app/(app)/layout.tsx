import type { ReactNode } from "react";
import { AppNav } from "@/app/_components/shell/app-nav.tsx";
import { Brand } from "@/app/_components/shell/brand.tsx";
import { ProgressToaster } from "@/app/_components/shell/progress-toaster.tsx";
import { OfflineBanner } from "@/app/_components/shell/offline-banner.tsx";
import styles from "@/app/_components/shell/shell.module.css";
import { ServiceWorkerRegistration } from "@/app/_components/service-worker-registration.tsx";
import { ToastProvider } from "@/app/_ui/index.ts";
import { requireUser } from "@/lib/auth/current-user.ts";

// The signed-in app: every page below needs a session (else /sign-in).
export default async function AppLayout({ children }: { children: ReactNode }) {
  await requireUser();
  return (
    <ToastProvider>
      <div className={`vd ${styles.frame}`}>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className={styles.topbar}>
          <Brand href="/record" />
        </header>
        <AppNav />
        <main id="main" className={styles.main}>
          <OfflineBanner />
          {children}
        </main>
        <ProgressToaster />
        <ServiceWorkerRegistration />
      </div>
    </ToastProvider>
  );
}
