// The app's server (scripts/serve.ts) says when it listens; work a start can put off waits for it,
// so the first request's seconds (warm-up included) do not share the one thread with it.

type Listening = { promise: Promise<void>; resolve: () => void };
// On globalThis: scripts/serve.ts and Next's bundle (instrumentation) each load a copy of this module.
const state = globalThis as unknown as { voicedraftListening?: Listening };

function listening(): Listening {
  if (!state.voicedraftListening) {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    state.voicedraftListening = { promise, resolve };
  }
  return state.voicedraftListening;
}

/** Called by the server once its port is open. */
export function markListening(): void {
  listening().resolve();
}

/** Resolves when the server listens, or after `atMostSeconds` (a server started otherwise never says). */
export function whenListening(atMostSeconds: number): Promise<void> {
  return Promise.race([listening().promise, new Promise<void>((r) => setTimeout(r, atMostSeconds * 1000).unref())]);
}
