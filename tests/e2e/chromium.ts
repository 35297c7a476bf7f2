// Debian's Chromium, as every browser test launches it (playwright.config.ts's launchOptions): no
// browser download, and a fake microphone that plays a file (the JFK speech unless a file says
// otherwise, tests/e2e/fixtures.ts `fakeAudio`) as soon as a page asks for one.
import type { LaunchOptions } from "@playwright/test";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** The launch options of a Chromium whose microphone plays `fakeAudio` (an absolute path). */
export function chromiumLaunchOptions(fakeAudio: string): LaunchOptions {
  return {
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-audio-capture=${fakeAudio}`,
    ],
  };
}
