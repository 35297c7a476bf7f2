// The service worker (bundled into public/sw.js by scripts/build-web-assets.mjs).
// Pages are network-first so a signed-in user always sees fresh data online, and fall back to
// the last copy (then to /offline) without a network; Next's hashed static files never change,
// so they are cache-first. API answers are not cached here: the pages keep what they read in
// IndexedDB (app/_lib/api.ts), and the upload and edit queues own offline writes. The one
// exception is a note's recording once listened to (NOTE_AUDIO below).
import {
  CacheExpiration,
  CacheFirst,
  createPartialResponse,
  ExpirationPlugin,
  NetworkFirst,
  Serwist,
  StaleWhileRevalidate,
  type RouteHandlerCallbackOptions,
  type SerwistPlugin,
} from "serwist";
import { localDb } from "@/app/_lib/local-db.ts";
import { enqueueUploads, nextDueIn, processQueue, SYNC_TAG } from "@/app/_lib/recording/upload-queue.ts";
import { OWNER_KEY } from "@/app/_lib/owner.ts";
import { AUDIO_CACHE, PAGES_CACHE } from "@/app/_lib/cache-names.ts";

declare const __SW_REVISION__: string;

// A page never kept, without a network: the offline page's markup (the app's frame, tab bar and a
// message), served under the address asked for. Its scripts are left out: hydrated under another
// address, Next's router would try to fetch that page and go round in circles; plain links work.
const OFFLINE_CSP = "default-src 'self'; script-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

const offlineShell: SerwistPlugin = {
  async handlerDidError() {
    const cached = await serwist.matchPrecache("/offline");
    if (!cached) return undefined;
    const html = (await cached.text()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "").replace(/<link[^>]+rel="(?:preload|modulepreload)"[^>]*as="script"[^>]*>/gi, "");
    return new Response(html, { status: 200, headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": OFFLINE_CSP } });
  },
};

// A note's recording plays offline once it was listened to online: on Play the page asks for the
// whole file to be kept (keepAudioOffline, a CACHE_URLS message whose request has no Range),
// and from then on the player's range requests are answered from it. Merely opening a note keeps
// nothing (the player's own requests are ranges, passed through). The page also keeps the newest
// notes' recordings within the budget set in Settings → This phone (app/_lib/notes/offline-audio.ts,
// which forgets older ones when over it); here at most 500 are kept, the least recently used going
// first. Sign-out, account deletion and deleting the note drop them (app/_lib/service-worker.ts).
const NOTE_AUDIO = /^\/api\/v1\/transcriptions\/[^/]+\/audio$/;
const audioExpiration = new CacheExpiration(AUDIO_CACHE, { maxEntries: 500 });

async function noteAudio({ request, event }: RouteHandlerCallbackOptions): Promise<Response> {
  const cache = await caches.open(AUDIO_CACHE);
  const kept = await cache.match(request.url);
  if (kept) return request.headers.has("range") ? createPartialResponse(request, kept) : kept;
  const response = await fetch(request);
  if (response.status === 200 && !request.headers.has("range")) {
    const keep = (async () => {
      await cache.put(request.url, response.clone());
      await audioExpiration.updateTimestamp(request.url);
      await audioExpiration.expireEntries();
    })().catch(() => undefined); // a full disk: it plays online only
    // Asked by the page (CACHE_URLS), the reply waits until it is kept; a fetch is answered at once.
    if (event?.type === "message") await keep;
    else (event as { waitUntil?(promise: Promise<unknown>): void } | undefined)?.waitUntil?.(keep);
  }
  return response;
}

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
        // The OAuth server's redirects and one-time consent pages are never worth keeping.
        !url.pathname.startsWith("/oauth/") &&
        url.pathname !== "/transcribe",
      handler: new NetworkFirst({
        cacheName: PAGES_CACHE,
        networkTimeoutSeconds: 10,
        plugins: [new ExpirationPlugin({ maxEntries: 50 }), offlineShell],
      }),
    },
    {
      matcher: ({ url, sameOrigin }) => sameOrigin && (url.pathname.startsWith("/_next/static/") || url.pathname.startsWith("/ffmpeg/")),
      handler: new CacheFirst({ cacheName: "static", plugins: [new ExpirationPlugin({ maxEntries: 300 })] }),
    },
    {
      matcher: ({ url, sameOrigin, request }) => sameOrigin && request.method === "GET" && NOTE_AUDIO.test(url.pathname),
      handler: noteAudio,
    },
    {
      matcher: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith("/icons/"),
      handler: new StaleWhileRevalidate({ cacheName: "assets" }),
    },
  ],
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

// Share target (the manifest's share_target): an audio file shared from another app arrives as a
// POST here, also offline. It is queued like a recording made in the app, for whoever last used
// the app on this phone, and the app opens on Record, where its progress shows.
const SHARE_TARGET_PATH = "/share-target";
type FetchEvent = Event & { request: Request; respondWith(response: Promise<Response>): void };
(self as unknown as { addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void }).addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "POST" || url.origin !== self.location.origin || url.pathname !== SHARE_TARGET_PATH) return;
  event.respondWith(receiveShare(event.request));
});

async function receiveShare(request: Request): Promise<Response> {
  // In the fragment, not the query: offline, the page kept for "/record" is the one that answers.
  const back = (query: string) => Response.redirect(`/record#${query}`, 303);
  try {
    const form = await request.formData();
    const files = form.getAll("audio").filter((f): f is File => typeof f !== "string" && f.size > 0);
    if (!files.length) return back("shared=none");
    const owner = ((await (await localDb()).get("reads", OWNER_KEY))?.body as string | undefined) ?? null;
    if (!owner) return back("shared=signed-out");
    let batch = "";
    for (const file of files) {
      const items = await enqueueUploads(owner, [{ blob: file, fileName: file.name || "shared-audio", mimeType: file.type || "application/octet-stream" }]);
      batch ||= items[0].batchId;
    }
    return back(`shared=${encodeURIComponent(batch)}`);
  } catch {
    return back("shared=failed");
  }
}
