// Builds the browser assets that are not part of Next's bundle, into public/ (git-ignored):
//   public/sw.js        the service worker (serwist), bundled with esbuild
//   public/ffmpeg/      @ffmpeg/core (single-thread) copied from node_modules, so nothing loads from a CDN,
//                       and the module worker that runs it (workers/audio-preprocess.ts)
// Runs on postinstall and before `next build`; safe to run again at any time.
import { createHash } from "node:crypto";
import { copyFile, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const source = path.join(root, "scripts", "sw", "service-worker.ts");

const REVISION_PLACEHOLDER = "__voicedraft_sw_revision__";

// The precache revision is the hash of the bundle itself, and the file is only rewritten when it
// changes: `npm start` rebuilds the app whenever a file under public/ is newer than the build.
async function buildServiceWorker() {
  const outfile = path.join(root, "public", "sw.js");
  const result = await build({
    entryPoints: [source],
    outfile,
    write: false,
    bundle: true,
    format: "iife",
    target: "es2022",
    minify: true,
    define: { __SW_REVISION__: JSON.stringify(REVISION_PLACEHOLDER), "process.env.NODE_ENV": '"production"' },
    logLevel: "warning",
  });
  const bundle = result.outputFiles[0].text;
  const revision = createHash("sha256").update(bundle).digest("hex").slice(0, 16);
  const text = bundle.replaceAll(REVISION_PLACEHOLDER, revision);
  await writeIfChanged(outfile, text);
}

async function writeIfChanged(file, text) {
  if ((await readFile(file, "utf8").catch(() => null)) === text) return;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

async function copyFfmpegCore() {
  const dist = path.join(root, "node_modules", "@ffmpeg", "core", "dist", "esm");
  if (!existsSync(dist)) return;
  const target = path.join(root, "public", "ffmpeg");
  await mkdir(target, { recursive: true });
  for (const file of ["ffmpeg-core.js", "ffmpeg-core.wasm"]) {
    const [from, to] = [path.join(dist, file), path.join(target, file)];
    const [a, b] = await Promise.all([stat(from), stat(to).catch(() => null)]);
    if (!b || a.size !== b.size || a.mtimeMs > b.mtimeMs) await copyFile(from, to);
  }
}

async function buildAudioWorker() {
  const outfile = path.join(root, "public", "ffmpeg", "audio-worker.js");
  const result = await build({
    entryPoints: [path.join(root, "workers", "audio-preprocess.ts")],
    outfile,
    write: false,
    bundle: true,
    format: "esm",
    target: "es2022",
    minify: true,
    logLevel: "warning",
  });
  await writeIfChanged(outfile, result.outputFiles[0].text);
}

await buildServiceWorker();
await copyFfmpegCore();
await buildAudioWorker();
