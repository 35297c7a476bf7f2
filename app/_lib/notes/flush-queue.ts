// What the note queues (edit-queue.ts, label-queue.ts) share: sending what waits, in turn.

/**
 * Sends each waiting item in turn, in one tab at a time (a Web Lock: another tab already sending
 * is left to it), until the connection is gone. Returns how many were saved.
 */
export async function flushQueue<T>(lock: string, waiting: () => Promise<T[]>, send: (item: T) => Promise<{ status: string }>): Promise<number> {
  if (typeof navigator !== "undefined" && navigator.onLine === false) return 0;
  const run = async () => {
    let saved = 0;
    for (const item of await waiting()) {
      const outcome = await send(item);
      if (outcome.status === "offline") break;
      if (outcome.status === "saved") saved += 1;
    }
    return saved;
  };
  if (typeof navigator !== "undefined" && navigator.locks) {
    return navigator.locks.request(lock, { ifAvailable: true }, (held) => (held ? run() : 0));
  }
  return run();
}
