import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { copyFile, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { env, resetEnvCache } from "@/lib/env.ts";
import { recognitionEngine, resetRecognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import { startModelAutoDownload, startModelAutoDownloadIfNeeded } from "@/lib/transcription/recognizers/model-auto-download.ts";
import { readDownloadStatus, writeDownloadStatus } from "@/lib/downloads/download-status.ts";
import { downloadWhisperModel, ModelDownloadError } from "@/lib/transcription/recognizers/models.ts";
import { describeRecognizerQuality, recognizerQuality } from "@/lib/transcription/recognizers/recognizer-quality.ts";

// The shared test model stands in for base.en, served by a local model host.
const TEST_MODEL = path.resolve(import.meta.dirname, "../fixtures/for-tests-ggml-tiny.en.bin");
let body: Buffer;
let sha1: string;
let dir: string;

before(async () => {
  body = await readFile(TEST_MODEL);
  sha1 = createHash("sha1").update(body).digest("hex");
  dir = await mkdtemp(path.join(tmpdir(), "vd-autodl-"));
});
after(async () => {
  await resetRecognitionEngine();
  await rm(dir, { recursive: true, force: true });
});

/** Serves `body`; the first `cutFirst` answers stop after half of it (a dropped connection). Honours Range. */
async function modelHost(cutFirst = 0): Promise<{ url: string; requests: IncomingHttpHeaders[]; close(): void }> {
  const requests: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.headers);
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
    const start = range ? Number(range[1]) : 0;
    const headers = { "content-length": body.length - start, ...(range && { "content-range": `bytes ${start}-${body.length - 1}/${body.length}` }) };
    res.writeHead(range ? 206 : 200, headers);
    if (requests.length <= cutFirst) {
      // Cut after the half has had time to reach the client's file: cut at once, the client's error
      // could come before its write of the half (a loaded CI machine), and the retry rightly started over.
      res.write(body.subarray(start, start + (body.length - start) / 2), () => setTimeout(() => res.destroy(), 150));
    } else {
      res.end(body.subarray(start));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, requests, close: () => server.close() };
}

function capturedLog() {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (msg: string) => void lines.push({ level, msg });
  return { lines, log: { info: at("info"), warn: at("warn"), debug: at("debug") } };
}

describe("downloadWhisperModel resumes", () => {
  test("an interrupted download keeps its partial file and the next call continues it with a Range request", async () => {
    const host = await modelHost(1);
    const modelsDir = path.join(dir, "resume");
    try {
      await assert.rejects(downloadWhisperModel({ name: "base.en", modelsDir, baseUrl: host.url, expectedSha1: sha1 }), ModelDownloadError);
      const partial = path.join(modelsDir, ".ggml-base.en.bin.part");
      const kept = (await stat(partial)).size;
      assert.ok(kept > 0 && kept < body.length, `partial file of ${kept} bytes`);

      const progress: number[] = [];
      const result = await downloadWhisperModel({
        name: "base.en",
        modelsDir,
        baseUrl: host.url,
        expectedSha1: sha1,
        onProgress: (received, total) => void (total === body.length && progress.push(received)),
      });
      assert.equal(host.requests[1].range, `bytes=${kept}-`);
      assert.equal(result.sha1, sha1);
      assert.ok((await readFile(result.path)).equals(body));
      assert.ok(progress[0] > kept, "progress counts the bytes already there");
      assert.deepEqual(await readdir(modelsDir), ["ggml-base.en.bin"]);
    } finally {
      host.close();
    }
  });

  test("a file whose SHA-1 is wrong is refused and its partial file deleted", async () => {
    const host = await modelHost();
    const modelsDir = path.join(dir, "wrong-sum");
    try {
      await assert.rejects(
        downloadWhisperModel({ name: "base.en", modelsDir, baseUrl: host.url, expectedSha1: "0".repeat(40) }),
        /SHA-1 mismatch for ggml-base\.en\.bin/,
      );
      assert.deepEqual(await readdir(modelsDir), []);
    } finally {
      host.close();
    }
  });
});

describe("background download of the accurate recognizer", () => {
  test("after a dropped connection it says once that the basic recognizer serves, retries, resumes and finishes", async () => {
    const host = await modelHost(2);
    const modelsDir = path.join(dir, "background");
    const { lines, log } = capturedLog();
    let ready: (file: string) => void;
    const done = new Promise<string>((resolve) => (ready = resolve));
    const download = startModelAutoDownload({ modelsDir, baseUrl: host.url, expectedSha1: sha1, retryDelayMs: () => 50, log, onReady: (f) => ready(f) });
    try {
      const file = await done;
      assert.ok((await readFile(file)).equals(body));
      assert.equal(host.requests.length, 3);
      assert.ok(host.requests[1].range && host.requests[2].range, "the retries resume");
      const warnings = lines.filter((l) => l.level === "warn");
      assert.equal(warnings.length, 1, JSON.stringify(lines));
      assert.match(warnings[0].msg, /basic speech recognizer/);
      assert.match(warnings[0].msg, /npm run model:download -- base\.en/);
      assert.equal(readDownloadStatus(modelsDir), null, "no progress is reported once it is done");
      assert.deepEqual((await readdir(modelsDir)).sort(), ["ggml-base.en.bin"]);
    } finally {
      await download.stop();
      host.close();
    }
  });

  test("a wrong checksum is refused: no model appears and the status says it waits to retry", async () => {
    const host = await modelHost();
    const modelsDir = path.join(dir, "background-wrong");
    const { log } = capturedLog();
    const download = startModelAutoDownload({ modelsDir, baseUrl: host.url, expectedSha1: "1".repeat(40), retryDelayMs: () => 60_000, log });
    try {
      for (let i = 0; i < 200 && readDownloadStatus(modelsDir)?.state !== "waiting"; i++) await new Promise((r) => setTimeout(r, 20));
      const status = readDownloadStatus(modelsDir);
      assert.equal(status?.state, "waiting");
      assert.match(status?.error ?? "", /the file that arrived was damaged or not the expected one/);
      assert.ok(!(await readdir(modelsDir)).some((f) => f.startsWith("ggml-")));
    } finally {
      await download.stop();
      host.close();
    }
    assert.equal(readDownloadStatus(modelsDir), null);
  });

  test("WHISPER_AUTO_DOWNLOAD=false, another engine, or a model already there: nothing starts", () => {
    const cases = [
      { TRANSCRIBE_ENGINE: "auto", WHISPER_AUTO_DOWNLOAD: "false", MODELS_DIR: path.join(dir, "none") },
      { TRANSCRIBE_ENGINE: "pocketsphinx", WHISPER_AUTO_DOWNLOAD: "true", MODELS_DIR: path.join(dir, "none") },
      { TRANSCRIBE_ENGINE: "auto", WHISPER_AUTO_DOWNLOAD: "true", MODELS_DIR: path.join(dir, "resume") },
    ];
    for (const settings of cases) {
      Object.assign(process.env, settings);
      resetEnvCache();
      assert.equal(startModelAutoDownloadIfNeeded(), null, JSON.stringify(settings));
    }
  });
});

describe("the engine and the quality people see follow the model's arrival", () => {
  test("auto serves with PocketSphinx, then switches to whisper without a restart when the model lands", async () => {
    const modelsDir = path.join(dir, "switch");
    Object.assign(process.env, { TRANSCRIBE_ENGINE: "auto", MODELS_DIR: modelsDir, LOG_LEVEL: "silent" });
    delete process.env.WHISPER_MODEL;
    resetEnvCache();
    await resetRecognitionEngine();
    await writeDownloadStatus(path.join(dir), null);
    assert.equal((await recognitionEngine()).name, "pocketsphinx");
    assert.equal(describeRecognizerQuality(recognizerQuality()), "Basic");

    await (await import("node:fs/promises")).mkdir(modelsDir, { recursive: true });
    await writeDownloadStatus(modelsDir, { model: "base.en", pid: process.pid, data_dir: env().dataDir, state: "downloading", received_bytes: 42, total_bytes: 100 });
    assert.equal(recognizerQuality().model_download?.percent, 42);
    assert.equal(describeRecognizerQuality(recognizerQuality()), "Basic (downloading the accurate recognizer: 42 %)");
    assert.equal((await recognitionEngine()).name, "pocketsphinx");

    await copyFile(TEST_MODEL, path.join(modelsDir, "ggml-base.en.bin"));
    await writeDownloadStatus(modelsDir, null);
    assert.equal((await recognitionEngine()).name, "whisper");
    assert.deepEqual(recognizerQuality(), { quality: "accurate", model_download: null });
    assert.equal(describeRecognizerQuality(recognizerQuality()), "Accurate");
  });
});

describe("only this server's download is reported (issue 44: /api/health showed another's)", () => {
  test("a download of another process (not this one or its parent), or of another DATA_DIR, is not this server's", async () => {
    const modelsDir = path.join(dir, "shared-models");
    await (await import("node:fs/promises")).mkdir(modelsDir, { recursive: true });
    Object.assign(process.env, { TRANSCRIBE_ENGINE: "auto", MODELS_DIR: modelsDir, LOG_LEVEL: "silent" });
    resetEnvCache();
    const ours = env().dataDir;
    const status = { model: "base.en", state: "downloading" as const, received_bytes: 50, total_bytes: 100 };
    // Another server's launcher, alive, sharing MODELS_DIR.
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    try {
      await writeDownloadStatus(modelsDir, { ...status, pid: other.pid!, data_dir: ours });
      assert.equal(readDownloadStatus(modelsDir), null, "another process's download, though for the same DATA_DIR");
      assert.equal(recognizerQuality().model_download, null);

      await writeDownloadStatus(modelsDir, { ...status, pid: process.pid, data_dir: path.join(dir, "another-data-dir") });
      assert.equal(readDownloadStatus(modelsDir), null, "this process's pid, but written for another DATA_DIR");

      // The launcher that started this server (its parent) downloads for this DATA_DIR: reported.
      await writeDownloadStatus(modelsDir, { ...status, pid: process.ppid, data_dir: ours });
      assert.equal(readDownloadStatus(modelsDir)?.received_bytes, 50);
      assert.equal(recognizerQuality().model_download?.percent, 50);
    } finally {
      other.kill();
      await writeDownloadStatus(modelsDir, null);
    }
  });

  test("the download started here is reported, with this DATA_DIR", async () => {
    const host = await modelHost();
    const modelsDir = path.join(dir, "own");
    const download = startModelAutoDownload({ modelsDir, baseUrl: host.url, expectedSha1: "1".repeat(40), retryDelayMs: () => 60_000, log: capturedLog().log });
    try {
      for (let i = 0; i < 200 && readDownloadStatus(modelsDir)?.state !== "waiting"; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(readDownloadStatus(modelsDir)?.data_dir, env().dataDir);
      assert.equal(readDownloadStatus(modelsDir, path.join(dir, "elsewhere")), null);
    } finally {
      await download.stop();
      host.close();
    }
  });
});
