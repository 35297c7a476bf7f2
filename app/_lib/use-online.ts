"use client";

import { useSyncExternalStore } from "react";

// Whether the device has a network now, following the browser's online and offline events (the
// offline banner, the live captions). On the server, online: the page renders as if it were.

const subscribe = (onChange: () => void) => {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
};

export const useOnline = (): boolean => useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
