import { AUDIO_CACHE } from "@/app/_lib/cache-names.ts";
import { listTranscriptions } from "@/app/_lib/api.ts";
import { keepAudioOffline } from "@/app/_lib/service-worker.ts";

// The newest notes' recordings kept on this phone, within a budget the person sets in Settings →
// This phone, so a note never played before still plays offline. The service worker keeps and
// serves them (the note-audio cache, as for a note played online); this decides which: the newest
// notes whose recordings fit the budget, fetched while the app is open, online and idle, never on
// a connection that asks to save data. Those that no longer fit (older notes, a smaller budget) are
// forgotten; recordings kept because they were played are not counted, and stay.

const BUDGET_KEY = "voicedraft:offline-audio-mb";
// The recordings this module fetched (not those kept because they were played): only these are
// forgotten when they no longer fit.
const FETCHED_KEY = "voicedraft:offline-audio-fetched";
export const BUDGET_CHOICES_MB = [0, 50, 100, 250, 500] as const;
export const DEFAULT_BUDGET_MB = 100;
const NOTES_LOOKED_AT = 100;
const MB = 1024 * 1024;

export function offlineAudioBudgetMb(): number {
  const stored = Number(globalThis.localStorage?.getItem(BUDGET_KEY) ?? NaN);
  return BUDGET_CHOICES_MB.includes(stored as (typeof BUDGET_CHOICES_MB)[number]) ? stored : DEFAULT_BUDGET_MB;
}

export function setOfflineAudioBudgetMb(mb: number): void {
  localStorage.setItem(BUDGET_KEY, String(mb));
}

/** The recordings kept now: how many, and their bytes. */
export async function keptAudio(): Promise<{ notes: number; bytes: number }> {
  if (typeof caches === "undefined") return { notes: 0, bytes: 0 };
  const cache = await caches.open(AUDIO_CACHE);
  let bytes = 0;
  const keys = await cache.keys();
  for (const key of keys) bytes += await sizeOf(cache, key);
  return { notes: keys.length, bytes };
}

async function sizeOf(cache: Cache, key: Request | string): Promise<number> {
  const response = await cache.match(key);
  const declared = Number(response?.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > 0) return declared;
  return (await response?.blob())?.size ?? 0;
}

let running: Promise<void> | null = null;
let again = false;

/**
 * Brings the kept recordings in line with the budget; never throws. One run at a time: asked
 * while one runs (the budget just changed), another follows it, and the promise covers both.
 */
export function syncOfflineAudio(): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    do {
      again = false;
      await sync().catch(() => undefined);
    } while (again);
  })().finally(() => (running = null));
  return running;
}

async function sync(): Promise<void> {
  if (typeof caches === "undefined" || !navigator.onLine) return;
  if ((navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData) return;
  const budget = offlineAudioBudgetMb() * MB;
  const { transcriptions } = await listTranscriptions(NOTES_LOOKED_AT);
  const wanted: string[] = [];
  let room = budget;
  for (const note of transcriptions) {
    if (!note.audio) continue;
    if (note.audio.bytes > room) break; // the newest that fit, in order: no gaps
    room -= note.audio.bytes;
    wanted.push(new URL(note.audio.url, location.href).href);
  }
  const cache = await caches.open(AUDIO_CACHE);
  // What was fetched for the budget and no longer fits it is forgotten; what was played stays.
  const keep = new Set(wanted);
  const fetched = new Set<string>(JSON.parse(localStorage.getItem(FETCHED_KEY) ?? "[]") as string[]);
  for (const url of fetched) {
    if (keep.has(url)) continue;
    await cache.delete(url);
    fetched.delete(url);
  }
  localStorage.setItem(FETCHED_KEY, JSON.stringify([...fetched]));
  for (const url of wanted) {
    if (!navigator.onLine) return;
    if (await cache.match(url)) continue;
    // Noted before it is fetched: a page left while the service worker keeps it must not leave it
    // kept but unnoted (then a smaller budget would never forget it).
    fetched.add(url);
    localStorage.setItem(FETCHED_KEY, JSON.stringify([...fetched]));
    if (await keepAudioOffline([url])) continue;
    fetched.delete(url);
    localStorage.setItem(FETCHED_KEY, JSON.stringify([...fetched]));
  }
}
