// The service worker (bundled into public/sw.js by scripts/build-web-assets.mjs).
// Pages are network-first so a signed-in user always sees fresh data online, and fall back to
// the last copy (then to /offline) without a network; Next's hashed static files never change,
// so they are cache-first. API calls are never cached: the upload queue owns offline behaviour.
import { CacheFirst, ExpirationPlugin, NetworkFirst, Serwist, StaleWhileRevalidate } from "serwist";
import { nextDueIn, processQueue, SYNC_TAG } from "@/app/_lib/upload-queue.ts";

declare const __SW_REVISION__: string;

const serwist = new Serwist({
  precacheEntries: [
    { url: "/offline", revision: __SW_REVISION__ },
    { url: "/manifest.webmanifest", revision: __SW_REVISION__ },
    { url: "/icons/icon-192.png", revision: __SW_REVISION__ },
    { url: "/icons/icon-512.png", revision: __SW_REVISION__ },
  ],
  skipWaiting: true,
  clientsClaim: true,
  runtimeCaching: [
    {
      // Navigations, and the pages a tab asks to keep (CACHE_URLS requests cannot be "navigate").
      matcher: ({ request, url, sameOrigin }) =>
        sameOrigin &&
        (request.mode === "navigate" || (request.headers.get("accept")?.startsWith("text/html") && !request.headers.has("rsc"))) &&
        !url.pathname.startsWith("/api/") &&
        url.pathname !== "/transcribe",
      handler: new NetworkFirst({
        cacheName: "pages",
        networkTimeoutSeconds: 10,
        plugins: [new ExpirationPlugin({ maxEntries: 50 })],
      }),
    },
    {
      matcher: ({ url, sameOrigin }) => sameOrigin && (url.pathname.startsWith("/_next/static/") || url.pathname.startsWith("/ffmpeg/")),
      handler: new CacheFirst({ cacheName: "static", plugins: [new ExpirationPlugin({ maxEntries: 300 })] }),
    },
    {
      matcher: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith("/icons/"),
      handler: new StaleWhileRevalidate({ cacheName: "assets" }),
    },
  ],
  fallbacks: { entries: [{ url: "/offline", matcher: ({ request }) => request.destination === "document" }] },
});

serwist.addEventListeners();

type SyncEvent = Event & { tag: string; waitUntil(promise: Promise<unknown>): void };
const worker = self as unknown as { addEventListener(type: "sync", listener: (event: SyncEvent) => void): void };

// Background Sync: drain the upload queue even when no tab is open. Rejecting while items are
// still waiting asks the browser to fire the sync again later.
worker.addEventListener("sync", (event) => {
  if (event.tag !== SYNC_TAG) return;
  event.waitUntil(
    (async () => {
      // Only the signed-in user's own recordings go up with the session cookie.
      const session = (await (await fetch("/api/auth/session", { credentials: "same-origin" })).json()) as { user?: { id?: string } };
      const owner = session.user?.id;
      if (!owner) return;
      await processQueue({ owner, force: true });
      if ((await nextDueIn(owner)) !== null) throw new Error("uploads still waiting");
    })(),
  );
});
