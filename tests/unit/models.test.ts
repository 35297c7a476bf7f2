import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { EngineUnavailableError } from "@/lib/transcription/recognizers/types.ts";
import {
  downloadWhisperModel,
  inspectWhisperModel,
  KNOWN_MODELS,
  ModelDownloadError,
  ModelFileError,
  resolveWhisperModel,
  UnknownModelError,
  WHISPER_MODEL_SHA1,
} from "@/lib/transcription/recognizers/models.ts";

const TEST_MODEL = path.resolve(import.meta.dirname, "../fixtures/for-tests-ggml-tiny.en.bin");
const ROOT = path.resolve(import.meta.dirname, "../..");

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "vd-models-"));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function folder(name: string, files: string[]): Promise<string> {
  const target = path.join(dir, name);
  await mkdir(target, { recursive: true });
  for (const file of files) await writeFile(path.join(target, file), "x");
  return target;
}

describe("resolveWhisperModel", () => {
  test("picks the most capable ggml model in MODELS_DIR and ignores other files", async () => {
    const models = await folder("pick", ["ggml-tiny.en.bin", "ggml-base.en.bin", "ggml-small.bin", "ggml-silero-v5.1.2.bin", "notes.txt", ".ggml-medium.bin.12.part"]);
    assert.equal(resolveWhisperModel({ MODELS_DIR: models }), path.join(models, "ggml-small.bin"));
  });

  test("a multilingual model wins over its .en twin (it was fetched for another language), a quantized one comes after its original", async () => {
    const models = await folder("twins", ["ggml-base.bin", "ggml-base.en-q5_1.bin", "ggml-base.en.bin"]);
    assert.equal(resolveWhisperModel({ MODELS_DIR: models }), path.join(models, "ggml-base.bin"));
    await rm(path.join(models, "ggml-base.bin"));
    assert.equal(resolveWhisperModel({ MODELS_DIR: models }), path.join(models, "ggml-base.en.bin"));
    await rm(path.join(models, "ggml-base.en.bin"));
    assert.equal(resolveWhisperModel({ MODELS_DIR: models }), path.join(models, "ggml-base.en-q5_1.bin"));
  });

  test("null when the folder is empty or missing", async () => {
    assert.equal(resolveWhisperModel({ MODELS_DIR: await folder("empty", ["readme.md"]) }), null);
    assert.equal(resolveWhisperModel({ MODELS_DIR: path.join(dir, "nowhere") }), null);
  });

  test("WHISPER_MODEL wins over the folder, as a path or as a model name", async () => {
    const models = await folder("explicit", ["ggml-small.bin", "ggml-tiny.bin"]);
    assert.equal(resolveWhisperModel({ WHISPER_MODEL: TEST_MODEL, MODELS_DIR: models }), TEST_MODEL);
    assert.equal(resolveWhisperModel({ WHISPER_MODEL: "tiny", MODELS_DIR: models }), path.join(models, "ggml-tiny.bin"));
  });

  test("a WHISPER_MODEL that does not exist is an error that says how to get one", () => {
    assert.throws(
      () => resolveWhisperModel({ WHISPER_MODEL: path.join(dir, "ggml-gone.bin"), MODELS_DIR: dir }),
      (err: unknown) =>
        err instanceof EngineUnavailableError &&
        err.message.includes("ggml-gone.bin") &&
        err.message.includes("npm run model:download -- base.en"),
    );
  });
});

describe("inspectWhisperModel", () => {
  test("reads whisper.cpp's test model: tiny, English-only, no weights", async () => {
    const info = await inspectWhisperModel(TEST_MODEL);
    assert.deepEqual(info, { size: "tiny", multilingual: false, hasWeights: false, tensors: 0, bytes: 586_836 });
  });

  test("walks the tensors of a model with weights and catches one cut short", async () => {
    // The test model plus one f32 tensor of 2×3: n_dims, name length, type, shape, name, data.
    const name = Buffer.from("encoder.conv1.bias");
    const header = Buffer.alloc(20);
    [2, name.length, 0, 2, 3].forEach((v, i) => header.writeInt32LE(v, i * 4));
    const withTensor = path.join(dir, "ggml-one-tensor.bin");
    await writeFile(withTensor, Buffer.concat([await readFile(TEST_MODEL), header, name, Buffer.alloc(6 * 4)]));
    const info = await inspectWhisperModel(withTensor);
    assert.equal(info.hasWeights, true);
    assert.equal(info.tensors, 1);
    await truncate(withTensor, info.bytes - 1);
    await assert.rejects(inspectWhisperModel(withTensor), /truncated/);
  });

  test("rejects a truncated download, a file of another kind and a missing file", async () => {
    const cut = path.join(dir, "ggml-cut.bin");
    await copyFile(TEST_MODEL, cut);
    await truncate(cut, 300_000);
    await assert.rejects(inspectWhisperModel(cut), (err: unknown) => err instanceof ModelFileError && /truncated/.test(err.reason));
    const html = path.join(dir, "ggml-html.bin");
    await writeFile(html, "<!doctype html><title>404</title>");
    await assert.rejects(inspectWhisperModel(html), /not a ggml file/);
    await assert.rejects(inspectWhisperModel(path.join(dir, "absent.bin")), /does not exist/);
  });
});

// A local stand-in for the model host: /ggml-<name>.bin answers `body`, /moved/… redirects there,
// /silent/… never answers.
async function modelServer(body: Buffer): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url?.startsWith("/silent/")) return; // keeps the socket open, says nothing
    if (req.url?.startsWith("/moved/")) {
      res.writeHead(302, { location: req.url.slice("/moved".length) }).end();
      return;
    }
    if (!req.url?.startsWith("/ggml-")) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type Run = { code: number | null; stdout: string; stderr: string; ms: number };

function downloadScript(args: string[], env: Record<string, string>, timeoutMs = 20_000): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", path.join(ROOT, "scripts/model-download.ts"), ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: timeoutMs },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : null) : 0;
        resolve({ code, stdout, stderr, ms: Date.now() - started });
      },
    );
  });
}

describe("model:download", () => {
  test("offline (connection refused) it fails at once with a clear message and exit code 1", async () => {
    const modelsDir = path.join(dir, "offline");
    const run = await downloadScript(["base.en"], { WHISPER_MODEL_BASE_URL: `http://127.0.0.1:${await closedPort()}/`, MODELS_DIR: modelsDir });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /Cannot download ggml-base\.en\.bin/);
    assert.match(run.stderr, /ECONNREFUSED/);
    assert.match(run.stderr, /offline/);
    assert.ok(run.ms < 15_000, `took ${run.ms} ms`);
    assert.deepEqual(await readdir(modelsDir).catch(() => []), []);
  });

  test("an unknown model name is a usage error listing the known ones", async () => {
    const run = await downloadScript(["base.fr"], { WHISPER_MODEL_BASE_URL: "http://127.0.0.1:1/" });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Unknown model "base\.fr"/);
    for (const name of ["tiny.en", "base.en", "large-v3-turbo"]) assert.ok(run.stderr.includes(name), name);
    const none = await downloadScript([], {});
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Usage: npm run model:download/);
  });

  test("a file whose SHA-1 is not the published one is discarded", async () => {
    const { url, server } = await modelServer(Buffer.from("definitely not tiny.en"));
    try {
      const modelsDir = path.join(dir, "mismatch");
      const run = await downloadScript(["tiny.en"], { WHISPER_MODEL_BASE_URL: url, MODELS_DIR: modelsDir });
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, new RegExp(`SHA-1 mismatch for ggml-tiny\\.en\\.bin: expected ${WHISPER_MODEL_SHA1["tiny.en"]}`));
      assert.deepEqual(await readdir(modelsDir), [], "neither the model nor its partial file stays");
    } finally {
      server.close();
    }
  });

  test("a verified download lands under its name, following redirects", async () => {
    const body = await readFile(TEST_MODEL);
    const sha1 = createHash("sha1").update(body).digest("hex");
    const { url, server } = await modelServer(body);
    try {
      const modelsDir = path.join(dir, "ok");
      const result = await downloadWhisperModel({ name: "tiny.en", modelsDir, baseUrl: `${url}moved`, expectedSha1: sha1 });
      assert.deepEqual(result, { path: path.join(modelsDir, "ggml-tiny.en.bin"), bytes: body.length, sha1, skipped: false });
      assert.deepEqual(await readdir(modelsDir), ["ggml-tiny.en.bin"]);
      assert.ok((await readFile(result.path)).equals(body));
      const again = await downloadWhisperModel({ name: "tiny.en", modelsDir, baseUrl: url, expectedSha1: sha1 });
      assert.equal(again.skipped, true);
    } finally {
      server.close();
    }
  });

  test("a server that never answers times out instead of hanging", async () => {
    const { url, server } = await modelServer(Buffer.alloc(0));
    try {
      const started = Date.now();
      await assert.rejects(
        downloadWhisperModel({ name: "base.en", modelsDir: path.join(dir, "silent"), baseUrl: `${url}silent/`, connectTimeoutMs: 300 }),
        (err: unknown) => err instanceof ModelDownloadError && /no answer within 0\.3 s/.test(err.message),
      );
      assert.ok(Date.now() - started < 5_000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  test("an HTTP error and an unknown name are reported as such", async () => {
    const { url, server } = await modelServer(Buffer.alloc(0));
    try {
      await assert.rejects(
        downloadWhisperModel({ name: "tiny", modelsDir: path.join(dir, "404"), baseUrl: `${url}missing/` }),
        /answered 404/,
      );
    } finally {
      server.close();
    }
    await assert.rejects(downloadWhisperModel({ name: "huge", modelsDir: dir }), UnknownModelError);
    assert.ok(KNOWN_MODELS.includes("base.en"));
  });
});
