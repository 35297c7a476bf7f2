// The real service the SDK suites run against: `npm start` on a private embedded database, with
// users and keys made by the admin CLI, exactly as a developer would set it up.
//
// As a program (`node --import tsx tests/support/sdk-service.ts`) it prints one JSON line with the
// URL and keys, keeps the server up until its stdin closes (or SIGTERM), then stops it and removes
// the data directory. scripts/test.mjs and SDK suites started on their own use it that way.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runScript, seedEmbeddedDatabase, serveUntilStdinEnds, startServer, type RunningServer } from "./processes.ts";

/** Small enough that a 413 test is cheap; tests/fixtures/jfk.wav (~350 KB) fits. */
export const SDK_SERVICE_MAX_UPLOAD_BYTES = 3 * 1024 * 1024;

export type SdkService = {
  url: string;
  /** All scopes. */
  apiKey: string;
  /** Another user's key: their resources must look missing (404) to the first. */
  otherApiKey: string;
  /** Only dictionary:read, for 403 insufficient_scope. */
  readOnlyApiKey: string;
  maxUploadBytes: number;
  stop(): Promise<void>;
};

const PASSWORD = "correct horse battery staple";

export async function startSdkService(): Promise<SdkService> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "vd-sdk-"));
  await seedEmbeddedDatabase(dataDir);
  const env = { DATA_DIR: dataDir, DATABASE_URL: "" };
  const admin = async (args: string[]) => {
    const result = await runScript("admin.ts", args, env);
    if (result.code !== 0) throw new Error(`admin ${args[0]} failed: ${result.stderr}`);
    return result.stdout.trimEnd().split("\n").at(-1)!;
  };
  let server: RunningServer;
  try {
    for (const email of ["sdk@example.com", "other@example.com"]) {
      await admin(["create-user", "--email", email, "--password", PASSWORD]);
    }
    server = await startServer({
      ...env,
      TRANSCRIBE_ENGINE: "pocketsphinx",
      MAX_UPLOAD_BYTES: String(SDK_SERVICE_MAX_UPLOAD_BYTES),
      // jfk.wav (11 s) is then optimized in the background, so the wait helper has something to wait for.
      OPTIMIZE_BACKGROUND_SECONDS: "5",
      // The SDK suites verify real deliveries at a receiver they start on 127.0.0.1.
      WEBHOOKS_ALLOW_PRIVATE: "true",
      LOG_LEVEL: "warn",
    });
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  try {
    return {
      url: server.url,
      apiKey: await admin(["create-key", "--email", "sdk@example.com", "--name", "sdk-tests"]),
      otherApiKey: await admin(["create-key", "--email", "other@example.com", "--name", "sdk-tests"]),
      readOnlyApiKey: await admin(["create-key", "--email", "sdk@example.com", "--name", "read-only", "--scopes", "dictionary:read"]),
      maxUploadBytes: SDK_SERVICE_MAX_UPLOAD_BYTES,
      async stop() {
        await server.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/** The environment an SDK suite reads the service from. */
export function sdkServiceEnv(service: SdkService): Record<string, string> {
  return {
    VOICEDRAFT_BASE_URL: service.url,
    VOICEDRAFT_API_KEY: service.apiKey,
    VOICEDRAFT_OTHER_API_KEY: service.otherApiKey,
    VOICEDRAFT_READONLY_API_KEY: service.readOnlyApiKey,
    VOICEDRAFT_MAX_UPLOAD_BYTES: String(service.maxUploadBytes),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const service = await startSdkService();
  serveUntilStdinEnds(sdkServiceEnv(service), () => service.stop());
}
