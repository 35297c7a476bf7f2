// `npm start`'s entry: runs the bundled launcher (scripts/start.ts and scripts/serve.ts as plain
// JavaScript, built by scripts/build-launcher.mjs at `npm install` and `npm run build`) in this
// same process. It checks first that the bundle is newer than each file it was made from (about
// 20 stats, ~1 ms), and rebuilds it when one changed since (a `git pull`, an edit): edited sources
// never run as old code, and an up-to-date start costs no second node process.
import { pathToFileURL } from "node:url";
import { buildLauncher } from "./build-launcher.mjs";

let bundle;
try {
  bundle = await buildLauncher();
} catch (err) {
  console.error(`could not build the launcher: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
await import(pathToFileURL(bundle).href);
