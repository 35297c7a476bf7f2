// Whether a live recording is being heard in this process right now, for work that should wait
// for it (the local writer: lib/writer/local/language-model.ts). The live captions report their
// count here (lib/transcription/live/live-captions.ts); it is kept on globalThis, since Next
// bundles lib/ more than once into one process (lib/brand.ts). A module of its own, so that the
// writer asks without importing the recognizers, which import the writer (the clean-up).

const kept = globalThis as unknown as { voicedraftLiveWork?: () => number };

/** Called once by the live captions: how many recordings are heard now. */
export function reportLiveWork(count: () => number): void {
  kept.voicedraftLiveWork = count;
}

export const liveWorkRunning = (): boolean => (kept.voicedraftLiveWork?.() ?? 0) > 0;
