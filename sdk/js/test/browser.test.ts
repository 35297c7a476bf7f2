import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, test } from "node:test";
import { chromium } from "playwright-core";
import { getService, JFK_WAV } from "./service.ts";

// The built package in a real browser (Debian's Chromium): fetch, FormData and a File, no Node.
// One origin serves the test page, dist/ and the audio, and passes every other path to the
// service, as a web app deployed next to its API would (the service sends no CORS headers).
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const DIST = path.resolve(import.meta.dirname, "../dist");

async function startSameOrigin(target: string) {
  const upstream = new URL(target);
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url!, "http://localhost");
    if (url.pathname === "/sdk-test/") {
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>SDK test</title>");
    } else if (url.pathname === "/sdk-test/jfk.wav") {
      res.writeHead(200, { "content-type": "audio/wav" }).end(await readFile(JFK_WAV));
    } else if (url.pathname.startsWith("/sdk-test/dist/")) {
      // dist/ and its folders (generated/), never a path outside it.
      const file = path.join(DIST, path.normalize(decodeURIComponent(url.pathname.slice("/sdk-test/dist/".length))));
      if (!file.startsWith(`${DIST}${path.sep}`) || !existsSync(file)) return res.writeHead(404).end();
      res.writeHead(200, { "content-type": "text/javascript" }).end(await readFile(file));
    } else {
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forward);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

test("in Chromium: transcribe a File, the dictionary round trip, typed errors", { skip: !existsSync(CHROMIUM) && `no Chromium at ${CHROMIUM}` }, async () => {
  const service = await getService();
  const origin = await startSameOrigin(service.baseUrl);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  after(async () => {
    await browser.close();
    origin.close();
  });
  const page = await browser.newPage();
  await page.goto(`${origin.url}/sdk-test/`);
  const outcome = await page.evaluate(async (apiKey: string) => {
    const moduleUrl = "/sdk-test/dist/index.js";
    const { Voicedraft, NotFoundError } = await import(moduleUrl);
    const vd = new Voicedraft({ baseUrl: location.origin, apiKey });
    const wav = await (await fetch("/sdk-test/jfk.wav")).blob();
    const transcript = await vd.transcribe(new File([wav], "jfk.wav", { type: "audio/wav" }));
    const misspelling = `browser ${Math.random().toString(16).slice(2)}`;
    const added = await vd.dictionary.add({ misspelling, correct_spelling: "Browser" });
    const listed = (await vd.dictionary.list()).entries.some((e: { misspelling: string }) => e.misspelling === misspelling);
    await vd.dictionary.delete({ misspelling });
    const missing = await vd.dictionary.delete({ misspelling }).catch((e: { status: number; code: string }) => ({
      isNotFound: e instanceof NotFoundError,
      status: e.status,
      code: e.code,
    }));
    return { text: transcript.text as string, created: added.created, listed, missing, hasNode: "process" in globalThis };
  }, service.apiKey);
  assert.equal(outcome.hasNode, false, "really a browser");
  assert.match(outcome.text, /\bcountry\b/i);
  assert.equal(outcome.created, true);
  assert.equal(outcome.listed, true);
  assert.deepEqual(outcome.missing, { isNotFound: true, status: 404, code: "not_found" });
});
