// Next reads next.config.ts on every `next start`. On Node 20, which cannot strip types, it does
// so through SWC's native binding, and the 24 MB binding then stays mapped in the server for
// good (bench/memory.ts: ~15 MB of the idle server's RSS). The production server is started with
// this module preloaded (node --import): it tells Next that this Node imports TypeScript itself,
// and a module hook hands Next the config compiled beforehand (compileNextConfig, run by the
// launcher) instead. A missing or stale compiled copy changes nothing: Next uses SWC as before.
//
// The same file is the hook module: Node runs hooks on their own thread, where it is imported again.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isMainThread } from "node:worker_threads";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SOURCE = path.join(root, "next.config.ts");
export const COMPILED_NEXT_CONFIG = path.join(root, "node_modules", ".cache", "voicedraft", "next.config.mjs");

const isCurrent = () => existsSync(COMPILED_NEXT_CONFIG) && statSync(COMPILED_NEXT_CONFIG).mtimeMs > statSync(SOURCE).mtimeMs;

/** Compiles next.config.ts to plain JavaScript beside the launcher bundle, unless that copy is current. */
export async function compileNextConfig() {
  if (isCurrent()) return COMPILED_NEXT_CONFIG;
  const { transform } = loadEsbuild();
  const { code } = await transform(readFileSync(SOURCE, "utf8"), { loader: "ts", format: "esm", target: "node20", sourcefile: SOURCE });
  mkdirSync(path.dirname(COMPILED_NEXT_CONFIG), { recursive: true });
  const temporary = `${COMPILED_NEXT_CONFIG}.${process.pid}`;
  writeFileSync(temporary, `// Compiled from next.config.ts by scripts/next-config-esm.mjs; do not edit.\n${code}`);
  renameSync(temporary, COMPILED_NEXT_CONFIG); // whole or not at all, for a server starting meanwhile
  return COMPILED_NEXT_CONFIG;
}

/** esbuild, installed with tsx (a dependency); found through tsx when npm did not hoist it. */
export function loadEsbuild() {
  const require = createRequire(path.join(root, "package.json"));
  try {
    return require("esbuild");
  } catch {
    return createRequire(require.resolve("tsx"))("esbuild");
  }
}

// Preloaded (node --import this file): only with a current compiled copy (a config edited since
// is read the usual way).
if (isMainThread && process.execArgv.includes(import.meta.url) && isCurrent()) {
  Object.defineProperty(process.features, "typescript", { value: "strip" });
  process.env.__NEXT_NODE_NATIVE_TS_LOADER_ENABLED = "true";
  register(import.meta.url, { data: { source: pathToFileURL(SOURCE).href, compiled: COMPILED_NEXT_CONFIG } });
}

let hooked;
/** On the hooks thread: which module to replace, by what. */
export function initialize(data) {
  hooked = data;
}

export async function load(url, context, nextLoad) {
  if (hooked && url === hooked.source) return { format: "module", shortCircuit: true, source: readFileSync(hooked.compiled, "utf8") };
  return nextLoad(url, context);
}
