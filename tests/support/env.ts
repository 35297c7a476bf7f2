import { resetEnvCache } from "@/lib/env.ts";
import { resetRecognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";

/**
 * What every test runs with unless it says otherwise: no model on this machine writes (a model a
 * developer downloaded into ./models must not change what the rules' tests see) and nothing is
 * downloaded. tests/api/writer-local.test.ts turns the local writer on for itself. Servers the
 * tests start get the same (tests/support/processes.ts; scripts/test/run-step.mjs for npm test).
 */
export const TEST_ENV_DEFAULTS = { WRITER_LOCAL: "off", WRITER_AUTO_DOWNLOAD: "false" } as const;
for (const [key, value] of Object.entries(TEST_ENV_DEFAULTS)) process.env[key] ??= value;

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
