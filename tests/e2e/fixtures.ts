// The browser tests' `test` (@playwright/test extended): `app`, the running app and this worker's
// Chromium, and after every test a check that no page, worker or service worker broke the
// Content-Security-Policy. A file that needs settings of its own says so with test.use():
//   appEnv      the app's environment over the test defaults: the file's worker starts an app of its
//               own (tests/e2e/app-server.ts) instead of using the one webServer runs
//   fakeAudio   the file the fake microphone plays (absolute), instead of the JFK speech
// Either may be a worker fixture when it is made at run time (a stand-in server's URL, a recording).
import assert from "node:assert/strict";
import { test as base } from "@playwright/test";
import { startAppServer } from "@/tests/e2e/app-server.ts";
import { chromiumLaunchOptions } from "@/tests/e2e/chromium.ts";
import type { App } from "@/tests/e2e/support.ts";
import { startChatServer } from "@/tests/support/chat-server.ts";

type AppOptions = { appEnv: Record<string, string> | undefined; fakeAudio: string | undefined };

export const test = base.extend<{ cspClean: void }, AppOptions & { app: App }>({
  appEnv: [undefined, { scope: "worker", option: true }],
  fakeAudio: [undefined, { scope: "worker", option: true }],
  app: [
    async ({ playwright, launchOptions, appEnv, fakeAudio }, use) => {
      // E2E_URL: a server you run yourself (a quick look while developing); E2E_APP_URL: the one
      // webServer started (its ready line, tests/e2e/app-server.ts).
      const running = process.env.E2E_URL ?? (appEnv ? undefined : process.env.E2E_APP_URL);
      const server = running ? undefined : await startAppServer(appEnv);
      const options = fakeAudio ? { ...launchOptions, ...chromiumLaunchOptions(fakeAudio) } : launchOptions;
      const browser = await playwright.chromium.launch(options);
      await use({ browser, url: running ?? server!.url, cspViolations: [], launchOptions: options });
      await browser.close().catch(() => undefined);
      await server?.stop();
    },
    { scope: "worker", timeout: 300_000 },
  ],
  cspClean: [
    async ({ app }, use) => {
      const before = app.cspViolations.length;
      await use();
      assert.deepEqual(app.cspViolations.slice(before), [], "Content-Security-Policy violations");
    },
    { auto: true },
  ],
});

type ChatServer = Awaited<ReturnType<typeof startChatServer>>;

/**
 * `test` for a file whose app has a writer: a stand-in chat server answering with `reply`, started
 * for the file's worker (`chat`, its requests), and the app started with it (WRITER_BASE_URL) and `env`.
 */
export function withChatServer(reply: Parameters<typeof startChatServer>[0], env: Record<string, string>) {
  return test.extend<object, { chat: ChatServer }>({
    chat: [
      async ({}, use) => {
        const chat = await startChatServer(reply);
        await use(chat);
        await chat.close();
      },
      { scope: "worker" },
    ],
    appEnv: [async ({ chat }, use) => use({ WRITER_BASE_URL: chat.baseUrl, ...env }), { scope: "worker" }],
  });
}
