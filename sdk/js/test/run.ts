// `npm test` in sdk/js: one service for every test file (each file runs in its own process, and
// would otherwise start its own), unless VOICEDRAFT_BASE_URL and the keys are already given.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { startLauncher } from "./service.ts";

const dir = import.meta.dirname;
const files = readdirSync(dir).filter((f) => f.endsWith(".test.ts")).map((f) => path.join(dir, f));
const given = Boolean(process.env.VOICEDRAFT_BASE_URL && process.env.VOICEDRAFT_OTHER_API_KEY);
const launcher = given ? undefined : await startLauncher();
const code = await new Promise<number>((resolve) => {
  const child = spawn(process.execPath, ["--import", "tsx", "--test", ...process.argv.slice(2), ...files], {
    stdio: "inherit",
    env: { ...process.env, ...launcher?.env },
  });
  child.on("exit", (status) => resolve(status ?? 1));
});
await launcher?.stop();
process.exitCode = code;
