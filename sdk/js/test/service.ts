// The running service under test: given through VOICEDRAFT_BASE_URL and the keys (scripts/test.mjs
// does that), or started here through the repository's launcher when they are not set.
import { spawn } from "node:child_process";
import { after } from "node:test";
import path from "node:path";
import { createInterface } from "node:readline";

export type Service = {
  baseUrl: string;
  apiKey: string;
  otherApiKey: string;
  readOnlyApiKey: string;
  maxUploadBytes: number;
};

const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
export const JFK_WAV = path.resolve(REPO_ROOT, "tests/fixtures/jfk.wav");

function fromEnv(env: Record<string, string | undefined>): Service {
  return {
    baseUrl: env.VOICEDRAFT_BASE_URL!,
    apiKey: env.VOICEDRAFT_API_KEY!,
    otherApiKey: env.VOICEDRAFT_OTHER_API_KEY!,
    readOnlyApiKey: env.VOICEDRAFT_READONLY_API_KEY!,
    maxUploadBytes: Number(env.VOICEDRAFT_MAX_UPLOAD_BYTES),
  };
}

/** Starts the repository's launcher (npm start, users and keys) and reads the environment it prints. */
export async function startLauncher(): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/sdk-service.ts"], {
    cwd: REPO_ROOT,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise((r) => child.on("exit", r));
  const stop = async () => {
    child.stdin.end();
    await exited;
  };
  const first = createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  const line = await Promise.race([first.then((r) => r.value as string | undefined), exited.then(() => undefined)]);
  if (!line) throw new Error(`the service launcher exited with ${child.exitCode}`);
  return { env: JSON.parse(line), stop };
}

async function launch(): Promise<Service> {
  const launcher = await startLauncher();
  after(() => launcher.stop());
  Object.assign(process.env, launcher.env); // the client's defaults read these
  return fromEnv(launcher.env);
}

let service: Promise<Service> | undefined;

/** The service (started once per test file when not given). */
export function getService(): Promise<Service> {
  service ??= process.env.VOICEDRAFT_BASE_URL && process.env.VOICEDRAFT_OTHER_API_KEY
    ? Promise.resolve(fromEnv(process.env))
    : launch();
  return service;
}
