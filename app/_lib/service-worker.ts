import type { Workbox } from "workbox-window";
import { AUDIO_CACHE, PAGES_CACHE } from "@/app/_lib/cache-names.ts";

let registered: Promise<Workbox | null> | undefined;

/**
 * Registers /sw.js once per page load (workbox-window is loaded only then), then hands it the URLs this page already loaded (the
 * page itself and its scripts), so the very first visit is enough to open the app offline.
 */
export function registerServiceWorker(): Promise<Workbox | null> {
  if (typeof window === "undefined" || !("serviceWorker" in navigator)) return Promise.resolve(null);
  registered ??= (async () => {
    const { Workbox } = await import("workbox-window");
    const wb = new Workbox("/sw.js", { scope: "/" });
    await wb.register();
    await navigator.serviceWorker.ready;
    const urlsToCache: (string | [string, RequestInit])[] = [
      [location.href, { headers: { accept: "text/html" }, credentials: "same-origin" }],
      ...performance
        .getEntriesByType("resource")
        .map((entry) => entry.name)
        .filter((url) => url.startsWith(`${location.origin}/_next/static/`)),
    ];
    await wb.messageSW({ type: "CACHE_URLS", payload: { urlsToCache } }).catch(() => undefined);
    return wb;
  })().catch(() => null);
  return registered;
}

/**
 * Asks the service worker to keep this page's HTML too: pages reached by an in-app link are
 * never fetched as documents, so without this they would not open offline after a reload.
 */
export async function keepPageOffline(href: string): Promise<void> {
  const wb = await registerServiceWorker();
  const page: [string, RequestInit] = [href, { headers: { accept: "text/html" }, credentials: "same-origin" }];
  await wb?.messageSW({ type: "CACHE_URLS", payload: { urlsToCache: [page] } }).catch(() => undefined);
}

/**
 * Keeps a note's recording (each part's URL) on the phone, so that it also plays offline
 * (scripts/sw/service-worker.ts); true once it is kept. Asks the active service worker directly:
 * registerServiceWorker may still be keeping this page's files.
 */
export async function keepAudioOffline(urls: string[]): Promise<boolean> {
  if (typeof caches === "undefined" || !("serviceWorker" in navigator)) return false;
  const cache = await caches.open(AUDIO_CACHE);
  const isKept = async () => (await Promise.all(urls.map((url) => cache.match(new URL(url, location.href).href)))).every(Boolean);
  if (await isKept()) return true;
  const worker = (await navigator.serviceWorker.ready).active;
  if (!worker) return false;
  const reply = new MessageChannel();
  const done = new Promise((resolve) => (reply.port1.onmessage = resolve));
  const urlsToCache = urls.map((url): [string, RequestInit] => [url, { credentials: "same-origin" }]);
  worker.postMessage({ type: "CACHE_URLS", payload: { urlsToCache } }, [reply.port2]);
  await done;
  return isKept();
}

/** A deleted note's recording does not stay on the phone. */
export async function forgetNoteAudio(id: string): Promise<void> {
  if (typeof caches === "undefined") return;
  const cache = await caches.open(AUDIO_CACHE);
  await cache.delete(`${location.origin}/api/v1/transcriptions/${encodeURIComponent(id)}/audio`);
}

/** After sign-out no page, and no recording, of the previous user may be served from the cache. */
export async function forgetCachedPages(): Promise<void> {
  if (typeof caches !== "undefined") await Promise.all([caches.delete(PAGES_CACHE), caches.delete(AUDIO_CACHE)]);
  globalThis.localStorage?.removeItem("voicedraft:offline-audio-fetched");
}
