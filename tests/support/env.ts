import { resetEnvCache } from "@/lib/env.ts";
import { resetRecognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";

/**
 * A test body that runs with some environment variables set (settings are re-read, and the
 * recognizer re-chosen), restoring them afterwards: `test("…", withEnv({ OPTIMIZER: "off" }, async () => …))`.
 */
export function withEnv(vars: Record<string, string>, fn: () => Promise<void>): () => Promise<void> {
  return async () => {
    const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    Object.assign(process.env, vars);
    resetEnvCache();
    await resetRecognitionEngine();
    try {
      await fn();
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      resetEnvCache();
      await resetRecognitionEngine();
    }
  };
}
