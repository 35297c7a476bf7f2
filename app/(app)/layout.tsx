import type { ReactNode } from "react";
import { AppFrame } from "@/app/_components/shell/app-frame.tsx";
import { ProgressToaster } from "@/app/_components/shell/progress-toaster.tsx";
import { OfflineBanner } from "@/app/_components/shell/offline-banner.tsx";
import { OfflineAudioSync } from "@/app/_components/shell/offline-audio-sync.tsx";
import { EditSync } from "@/app/_components/shell/edit-sync.tsx";
import { UploadSync } from "@/app/_components/shell/upload-sync.tsx";
import { ServiceWorkerRegistration } from "@/app/_components/shell/service-worker-registration.tsx";
import { ToastProvider } from "@/app/_ui/index.ts";
import { requireUser } from "@/lib/auth/current-user.ts";

// The signed-in app: every page below needs a session (else /sign-in).
export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  return (
    <ToastProvider>
      <AppFrame
        after={
          <>
            <ProgressToaster />
            <EditSync />
            <OfflineAudioSync />
            <UploadSync owner={user.id} />
            <ServiceWorkerRegistration />
          </>
        }
      >
        <OfflineBanner />
        {children}
      </AppFrame>
    </ToastProvider>
  );
}
