// The service worker's caches that pages open too (to see what is kept, or to drop it at sign-out).

/** The pages kept for offline use (network first). */
export const PAGES_CACHE = "pages";
/** The recordings of notes played, so that they also play offline. */
export const AUDIO_CACHE = "note-audio";
