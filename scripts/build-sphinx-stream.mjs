// Builds native/sphinx-stream.c: PocketSphinx hearing a live recording, with the words of the
// phrase being spoken (the live captions' provisional words; lib/transcription/recognizers/pocketsphinx.ts).
// Built at `npm install` (postinstall) and `npm run build` (prebuild) where a C compiler and Debian's
// libpocketsphinx-dev are installed (`apt-get install gcc libpocketsphinx-dev pkg-config`); elsewhere
// it says so and the server runs pocketsphinx_continuous, whose captions wait for each pause.
// `node scripts/build-sphinx-stream.mjs` alone prints where it is.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SPHINX_STREAM = path.join(root, "node_modules", ".cache", "voicedraft", "sphinx-stream");
const SOURCE = path.join(root, "native", "sphinx-stream.c");

const run = (cmd, args) => execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

/** The built helper's path, or null (with the reason) where it cannot be built here. */
export function buildSphinxStream() {
  if (existsSync(SPHINX_STREAM) && statSync(SPHINX_STREAM).mtimeMs > statSync(SOURCE).mtimeMs) return { path: SPHINX_STREAM };
  let flags;
  try {
    flags = run("pkg-config", ["--cflags", "--libs", "pocketsphinx", "sphinxbase"]).split(/\s+/);
  } catch {
    return { path: null, reason: "libpocketsphinx-dev is not installed (apt-get install gcc libpocketsphinx-dev pkg-config)" };
  }
  mkdirSync(path.dirname(SPHINX_STREAM), { recursive: true });
  const partial = `${SPHINX_STREAM}.${process.pid}`;
  try {
    run(process.env.CC ?? "cc", ["-O2", "-o", partial, SOURCE, ...flags]);
  } catch (err) {
    return { path: null, reason: `it did not compile: ${String(err.stderr ?? err.message).split("\n")[0]}` };
  }
  renameSync(partial, SPHINX_STREAM);
  return { path: SPHINX_STREAM };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = buildSphinxStream();
  if (built.path) console.log(built.path);
  else console.log(`sphinx-stream not built: ${built.reason}; live captions then wait for each pause`);
}
