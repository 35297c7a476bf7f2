// What the note queues (edit-queue.ts, label-queue.ts) share: sending what waits, in turn.

/** How a flush went: how many were saved, and whether one found no connection (the rest still waits). */
export type Flushed = { saved: number; offline: boolean };

/**
 * Sends each waiting item in turn, in one tab at a time (a Web Lock: another tab already sending
 * is left to it), until the connection is gone.
 */
export async function flushQueue<T>(lock: string, waiting: () => Promise<T[]>, send: (item: T) => Promise<{ status: string }>): Promise<Flushed> {
  if (typeof navigator !== "undefined" && navigator.onLine === false) return { saved: 0, offline: true };
  const run = async (): Promise<Flushed> => {
    let saved = 0;
    for (const item of await waiting()) {
      const outcome = await send(item);
      if (outcome.status === "offline") return { saved, offline: true };
      if (outcome.status === "saved") saved += 1;
    }
    return { saved, offline: false };
  };
  if (typeof navigator !== "undefined" && navigator.locks) {
    return navigator.locks.request(lock, { ifAvailable: true }, (held) => (held ? run() : { saved: 0, offline: false }));
  }
  return run();
}
