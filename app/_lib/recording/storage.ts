// The phone's own copy of recordings (IndexedDB) must survive storage pressure until they are
// uploaded: ask the browser to keep it (persistent storage), and watch the space left.

// The recorder writes about 64 kbit/s: 480 KB a minute, plus room for the parts cut from it.
const BYTES_PER_MINUTE = 2 * 480 * 1024;

/** Asks once that this site's storage is not evicted; true when kept, false when refused, null when the browser cannot say. */
export async function keepRecordingsOnPhone(): Promise<boolean | null> {
  const storage = typeof navigator === "undefined" ? undefined : navigator.storage;
  if (!storage?.persist || !storage.persisted) return null;
  try {
    return (await storage.persisted()) || (await storage.persist());
  } catch {
    return null;
  }
}

/** Whether the browser keeps this site's storage (for Settings to explain); null when it cannot say. */
export async function isKeptOnPhone(): Promise<boolean | null> {
  try {
    return (await navigator.storage?.persisted?.()) ?? null;
  } catch {
    return null;
  }
}

/** About how many minutes of recording fit in the space the browser still gives this site; null when unknown. */
export async function minutesOfSpaceLeft(): Promise<number | null> {
  try {
    const estimate = await navigator.storage?.estimate?.();
    if (!estimate?.quota) return null;
    return Math.floor((estimate.quota - (estimate.usage ?? 0)) / BYTES_PER_MINUTE);
  } catch {
    return null;
  }
}
