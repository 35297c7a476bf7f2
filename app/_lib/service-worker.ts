import type { Workbox } from "workbox-window";

let registered: Promise<Workbox | null> | undefined;

/**
 * Runs `work` once the page has loaded and the browser is idle, so that what it costs (scripts
 * to fetch and run, a service worker to install) never competes with the page's first paint.
 */
export function whenIdle(work: () => void): () => void {
  let cancel = () => {};
  const idle = () => {
    if ("requestIdleCallback" in window) {
      const handle = requestIdleCallback(work, { timeout: 3000 });
      cancel = () => cancelIdleCallback(handle);
    } else {
      const handle = setTimeout(work, 200);
      cancel = () => clearTimeout(handle);
    }
  };
  if (document.readyState === "complete") idle();
  else {
    window.addEventListener("load", idle, { once: true });
    cancel = () => window.removeEventListener("load", idle);
  }
  return () => cancel();
}

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

/** After sign-out no page of the previous user may be served from the cache. */
export async function forgetCachedPages(): Promise<void> {
  if (typeof caches !== "undefined") await caches.delete("pages");
}
