"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { whenIdle } from "@/app/_lib/idle.ts";
import { catchInstallPrompt } from "@/app/_lib/install-prompt.ts";
import { keepPageOffline, registerServiceWorker } from "@/app/_lib/service-worker.ts";

export function ServiceWorkerRegistration() {
  const pathname = usePathname();
  const first = useRef(true);
  // After the page has loaded: installing the worker (and its copy of this page's files) would
  // otherwise compete with the first paint.
  useEffect(() => whenIdle(() => void registerServiceWorker()), []);
  // The browser's offer to install comes once, on whichever page: kept for Settings → This phone.
  useEffect(catchInstallPrompt, []);
  // Every page the user moves to in the app is kept for offline reading (the first one is kept by
  // the registration itself). Not while offline: the copy kept would be the offline page.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (navigator.onLine) void keepPageOffline(location.href);
  }, [pathname]);
  return null;
}
