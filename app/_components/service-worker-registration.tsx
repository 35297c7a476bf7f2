"use client";

import { useEffect } from "react";
import { registerServiceWorker } from "@/lib/web/service-worker.ts";

export function ServiceWorkerRegistration() {
  useEffect(() => {
    void registerServiceWorker();
  }, []);
  return null;
}
