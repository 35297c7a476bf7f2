// npm run bench:app — Lighthouse (mobile form factor, its default throttling) on the signed-in
// pages people use most: Record, Notes, a note, Posts, a post. Prints performance,
// accessibility and best-practices per page (goal: ≥ 95 / 100 / 100).
//
// Runs the real app (npm start's launcher, a fresh DATA_DIR); set NEXT_DIST_DIR to build beside
// other builds. Chromium: CHROME_PATH (default Debian's /usr/bin/chromium). Signed in through a
// session cookie made by signing up in Playwright, passed to Lighthouse as a request header.
// Each page is measured BENCH_RUNS times (default 3): the median run is printed, with the range.
// BENCH_VERBOSE=1 also lists each page's failing audits and its LCP element; BENCH_LHR_DIR=D keeps
// each page's median Lighthouse report (JSON) in D for a closer look.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import lighthouse, { type RunnerResult } from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
import { startServer } from "@/tests/support/processes.ts";

const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const JFK = path.resolve(import.meta.dirname, "../tests/fixtures/jfk.wav");
const CATEGORIES = ["performance", "accessibility", "best-practices"] as const;
// Lighthouse's performance score moves by several points from run to run on the same page; the
// median of a few runs (BENCH_RUNS, default 3) is the number to compare.
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** A user with a note and a post; returns the Cookie header and the pages to measure. */
async function signedIn(url: string): Promise<{ cookie: string; pages: [string, string][] }> {
  const browser = await chromium.launch({ executablePath: CHROME, args: ["--no-sandbox"] });
  try {
    const page = await browser.newPage({ baseURL: url });
    await page.goto("/sign-up");
    await page.getByLabel("Email").fill(`lighthouse-${Date.now()}@example.test`);
    await page.getByLabel("Password", { exact: true }).fill("correct horse battery staple");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL("**/record");
    const headers = { origin: url };
    const audio = await readFile(JFK);
    const note = (await (
      await page.request.post("/transcribe", { headers, multipart: { audio: { name: "jfk.wav", mimeType: "audio/wav", buffer: audio } }, timeout: 300_000 })
    ).json()) as { id: string };
    const post = (await (await page.request.post("/api/v1/content/items", { headers, data: { source_transcription_id: note.id } })).json()) as {
      item: { id: string };
    };
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    return {
      cookie,
      pages: [
        ["Record", "/record"],
        ["Notes", "/transcripts"],
        ["A note", `/transcripts/${note.id}`],
        ["Posts", "/content"],
        ["A post", `/content/${post.item.id}`],
      ],
    };
  } finally {
    await browser.close();
  }
}

const dir = await mkdtemp(path.join(tmpdir(), "vd-bench-lighthouse-"));
// BENCH_URL: measure a server you already run (e.g. on a busy machine where a build may take longer
// than the launcher's start-up timeout); it needs PocketSphinx for the note the bench records.
const server = process.env.BENCH_URL
  ? { url: process.env.BENCH_URL, stop: async () => 0 }
  : await startServer({ DATA_DIR: path.join(dir, "data"), TRANSCRIBE_ENGINE: "pocketsphinx", LOG_LEVEL: "warn" });
const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
try {
  const { cookie, pages } = await signedIn(server.url);
  console.log(`Lighthouse ${RUNS}× per page; the median run (by performance) is shown, with the range of performance scores.`);
  console.log("page       performance  (range)   accessibility  best-practices   FCP     LCP     TBT    host CPU index");
  for (const [name, pathname] of pages) {
    const runs: RunnerResult[] = [];
    for (let i = 0; i < RUNS; i++) {
      const result = await lighthouse(`${server.url}${pathname}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: [...CATEGORIES],
        extraHeaders: { Cookie: cookie },
      });
      if (result) runs.push(result);
    }
    const perf = (r: RunnerResult) => r.lhr.categories.performance?.score ?? 0;
    runs.sort((a, b) => perf(a) - perf(b));
    const { lhr } = runs[Math.floor(runs.length / 2)]!;
    const score = (id: string) => String(Math.round((lhr.categories[id]?.score ?? 0) * 100));
    const range = `${Math.round(perf(runs[0]!) * 100)}-${Math.round(perf(runs.at(-1)!) * 100)}`;
    const ms = (id: string) => `${Math.round(lhr.audits[id]?.numericValue ?? 0)}`.padEnd(8);
    console.log(
      `${name.padEnd(11)}${score("performance").padEnd(13)}${range.padEnd(10)}${score("accessibility").padEnd(15)}${score("best-practices").padEnd(17)}` +
        `${ms("first-contentful-paint")}${ms("largest-contentful-paint")}${ms("total-blocking-time")}${Math.round(lhr.environment.benchmarkIndex)}`,
    );
    if (process.env.BENCH_LHR_DIR) {
      await mkdir(process.env.BENCH_LHR_DIR, { recursive: true });
      await writeFile(path.join(process.env.BENCH_LHR_DIR, `${name.toLowerCase().replace(/\W+/g, "-")}.json`), JSON.stringify(lhr, null, 1));
    }
    if (process.env.BENCH_VERBOSE) {
      for (const audit of Object.values(lhr.audits)) {
        if (audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== "informative") console.log(`  ${audit.id}: ${audit.title}`);
      }
      const lcp = JSON.stringify(lhr.audits["lcp-breakdown-insight"]?.details ?? {}).match(/"nodeLabel":"([^"]{0,60})/)?.[1];
      if (lcp) console.log(`  LCP element: ${lcp}`);
    }
  }
} finally {
  chrome.kill();
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
