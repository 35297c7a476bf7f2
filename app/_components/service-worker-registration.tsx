"use client";

import { useEffect } from "react";
import { registerServiceWorker } from "@/app/_lib/service-worker.ts";

export function ServiceWorkerRegistration() {
  useEffect(() => {
    void registerServiceWorker();
  }, []);
  return null;
}
