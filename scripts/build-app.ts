// Builds what `npm start` serves: the web assets outside Next's bundle (service worker, ffmpeg
// worker) and the Next production build when it is missing or older than its sources. One build
// at a time per output folder (several servers started at once — tests — would otherwise run
// `next build` side by side and fail); whoever waited finds the build done.
//
// `tsx scripts/build-app.ts` runs it alone (npm test does, once, before the steps that start servers).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { open, readdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { log, errorFields } from "@/lib/log.ts";
import { isProcessAlive } from "@/lib/process-alive.ts";

const root = process.cwd();
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
// A self-hosted voice app does not report usage to Vercel.
export const nextEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const distDir = path.join(root, process.env.NEXT_DIST_DIR ?? ".next");
const SOURCES = ["app", "lib", "public", "proxy.ts", "instrumentation.ts", "next.config.ts", "package-lock.json", "tsconfig.json"];

/** The newest modification time of the files a production build is made from. */
async function sourcesModifiedAt(): Promise<number> {
  let newest = 0;
  const visit = async (target: string): Promise<void> => {
    const info = await stat(target).catch(() => null);
    if (!info) return;
    if (info.isDirectory()) {
      for (const entry of await readdir(target)) await visit(path.join(target, entry));
    } else {
      newest = Math.max(newest, info.mtimeMs);
    }
  };
  for (const part of SOURCES) {
    if (part === "lib") {
      for (const entry of await readdir(path.join(root, "lib"))) {
        if (entry !== "generated") await visit(path.join(root, "lib", entry));
      }
    } else {
      await visit(path.join(root, part));
    }
  }
  return newest;
}

async function withBuildLock<T>(run: () => Promise<T>): Promise<T> {
  const lock = path.join(tmpdir(), `voicedraft-build-${createHash("sha1").update(distDir).digest("hex").slice(0, 12)}.lock`);
  for (let announced = false; ; ) {
    try {
      const handle = await open(lock, "wx");
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const holder = Number(await readFile(lock, "utf8").catch(() => ""));
    const age = Date.now() - ((await stat(lock).catch(() => null))?.mtimeMs ?? 0);
    if ((holder && !isProcessAlive(holder)) || (!holder && age > 10_000)) {
      await unlink(lock).catch(() => undefined); // left by a build that died
      continue;
    }
    if (!announced) log.info("waiting for another build of the app to finish", { pid: holder || undefined });
    announced = true;
    await new Promise((r) => setTimeout(r, 500));
  }
  try {
    return await run();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}

async function isCurrent(sources: number): Promise<boolean> {
  if (!existsSync(path.join(distDir, "BUILD_ID"))) return false;
  const marker = JSON.parse(await readFile(path.join(distDir, "voicedraft-build.json"), "utf8").catch(() => "{}"));
  return (marker as { sources?: number }).sources === sources;
}

export async function buildApp({ next = true }: { next?: boolean } = {}): Promise<void> {
  await withBuildLock(async () => {
    const assets = spawnSync(process.execPath, [path.join(root, "scripts", "build-web-assets.mjs")], { stdio: "inherit" });
    if (assets.status !== 0) throw new Error("building the web assets failed; see the output above.");
    if (!next) return;
    const sources = await sourcesModifiedAt();
    if (await isCurrent(sources)) return;
    log.info("building the app (first start, or the sources changed)");
    const result = spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit", env: nextEnv });
    if (result.status !== 0) throw new Error("next build failed; see the output above.");
    await writeFile(path.join(distDir, "voicedraft-build.json"), JSON.stringify({ sources }));
  });
}

// Run as a script (not when bundled into the launcher, whose own file is then process.argv[1]).
if (pathToFileURL(process.argv[1] ?? "").href === pathToFileURL(path.join(root, "scripts", "build-app.ts")).href) {
  try {
    await buildApp();
  } catch (err) {
    log.error("could not build", errorFields(err));
    process.exitCode = 1;
  }
}
