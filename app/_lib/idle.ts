/**
 * Runs `work` once the page has loaded and the browser is idle, so that what it costs (scripts
 * to fetch and run, a service worker to install) never competes with the page's first paint.
 * `afterMs`: wait that long after the load first, for work that would otherwise compete with
 * the person's first taps (a download of many megabytes, a sync that can wait).
 */
export function whenIdle(work: () => void, { afterMs = 0 }: { afterMs?: number } = {}): () => void {
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
  const loaded = () => {
    if (!afterMs) return idle();
    const handle = setTimeout(idle, afterMs);
    cancel = () => clearTimeout(handle);
  };
  if (document.readyState === "complete") loaded();
  else {
    window.addEventListener("load", loaded, { once: true });
    cancel = () => window.removeEventListener("load", loaded);
  }
  return () => cancel();
}
