import { useSyncExternalStore } from "react";

// Installing on the home screen. Android's Chromium browsers fire `beforeinstallprompt` once the app
// qualifies (a manifest, a service worker, a secure address); the event is kept here, from the first
// signed-in page on, so Settings can offer the browser's own prompt later. Apple's browsers have no
// such event: they get a hint (Share → Add to Home Screen).

type InstallPromptEvent = Event & { prompt(): Promise<void>; userChoice: Promise<{ outcome: "accepted" | "dismissed" }> };

let offered: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** From every signed-in page: keeps the browser's install prompt for later (its mini-infobar stays away). */
export function catchInstallPrompt(): () => void {
  const onPrompt = (event: Event) => {
    event.preventDefault();
    offered = event as InstallPromptEvent;
    changed();
  };
  const onInstalled = () => {
    offered = null;
    changed();
  };
  window.addEventListener("beforeinstallprompt", onPrompt);
  window.addEventListener("appinstalled", onInstalled);
  return () => {
    window.removeEventListener("beforeinstallprompt", onPrompt);
    window.removeEventListener("appinstalled", onInstalled);
  };
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export type InstallWay = "prompt" | "apple" | "installed" | null;

function installWay(): InstallWay {
  if (matchMedia("(display-mode: standalone)").matches || (navigator as Navigator & { standalone?: boolean }).standalone) return "installed";
  if (offered) return "prompt";
  // iPhone and iPad (iPadOS says Macintosh, with touch), in Safari or any browser there.
  const apple = /iPhone|iPad|iPod/.test(navigator.userAgent) || (/Macintosh/.test(navigator.userAgent) && navigator.maxTouchPoints > 1);
  return apple && window.isSecureContext ? "apple" : null;
}

/** How this device can install the app now: the browser's prompt, Apple's hint, already installed, or no way. */
export const useInstallWay = (): InstallWay => useSyncExternalStore(subscribe, installWay, () => null);

/** Shows the browser's install prompt; true when the person installed. */
export async function promptInstall(): Promise<boolean> {
  const event = offered;
  if (!event) return false;
  offered = null;
  changed();
  await event.prompt();
  return (await event.userChoice).outcome === "accepted";
}
