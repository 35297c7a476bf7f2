// npm run model:download -- <name> [--force]: fetch a whisper.cpp ggml model into MODELS_DIR
// (default ./models), checking its published SHA-1. WHISPER_MODEL_BASE_URL points elsewhere (a
// mirror, or a local server in tests).
import path from "node:path";
import { env } from "@/lib/env.ts";
import {
  DEFAULT_MODEL_BASE_URL,
  downloadWhisperModel,
  KNOWN_MODELS,
  ModelDownloadError,
  WHISPER_MODEL_SHA1,
} from "@/lib/transcription/recognizers/models.ts";

const USAGE = `Usage: npm run model:download -- <model> [--force]

Models: ${KNOWN_MODELS.join(", ")}
Saves ggml-<model>.bin into MODELS_DIR (default ./models). base.en is a good start for English.`;

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const force = args.includes("--force");
  const names = args.filter((a) => !a.startsWith("--"));
  if (names.length !== 1 || args.includes("--help")) {
    console.error(USAGE);
    return 2;
  }
  const [name] = names;
  if (!WHISPER_MODEL_SHA1[name]) {
    console.error(`Unknown model "${name}".\n\n${USAGE}`);
    return 2;
  }
  const { MODELS_DIR, WHISPER_MODEL_BASE_URL } = env();
  const modelsDir = path.resolve(MODELS_DIR);
  const baseUrl = WHISPER_MODEL_BASE_URL ?? DEFAULT_MODEL_BASE_URL;
  let lastPercent = -1;
  try {
    const result = await downloadWhisperModel({
      name,
      modelsDir,
      baseUrl,
      force,
      onProgress(received, total) {
        const percent = total ? Math.floor((received / total) * 100) : -1;
        if (process.stderr.isTTY && percent !== lastPercent) {
          process.stderr.write(`\r${name}: ${percent}% of ${(total! / 2 ** 20).toFixed(0)} MiB`);
          lastPercent = percent;
        }
      },
    });
    if (process.stderr.isTTY && lastPercent >= 0) process.stderr.write("\n");
    if (result.skipped) console.log(`${result.path} already exists (use --force to download it again).`);
    else console.log(`Saved ${result.path} (${(result.bytes / 2 ** 20).toFixed(1)} MiB, SHA-1 ${result.sha1} verified).`);
    return 0;
  } catch (err) {
    if (process.stderr.isTTY && lastPercent >= 0) process.stderr.write("\n");
    if (err instanceof ModelDownloadError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
}

process.exitCode = await main();
