import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import {
  chooseLocalModel,
  DEFAULT_LOCAL_MODEL,
  downloadedModelPath,
  LOCAL_MODEL_MIN_MEMORY,
  localModelSource,
} from "@/lib/writer/local/model-file.ts";
import { ggufHeaderProblem } from "@/lib/writer/local/gguf-header.ts";
import { tinyGguf } from "@/tests/support/tiny-gguf.ts";

// Which model file the local writer would use, and why not: pure decisions over the settings, the
// machine's memory and the files in MODELS_DIR. The whole path (download, load, writing) is in
// tests/api/writer-local.test.ts.

const dir = await mkdtemp(path.join(tmpdir(), "vd-local-model-"));
after(() => rm(dir, { recursive: true, force: true }));

const settings = (over: Partial<Parameters<typeof chooseLocalModel>[0]> = {}) => ({
  WRITER_LOCAL: "auto" as const,
  WRITER_LOCAL_MODEL: undefined,
  WRITER_LOCAL_MODEL_URL: undefined,
  WRITER_LOCAL_MODEL_SHA256: undefined,
  MODELS_DIR: path.join(dir, "models"),
  ...over,
});
const PLENTY = 16 * 2 ** 30;

describe("the local writer's model file", () => {
  test("the default: Qwen2.5-1.5B-Instruct Q4_K_M from Hugging Face, its SHA-256 pinned, saved under its own name in MODELS_DIR", () => {
    assert.match(DEFAULT_LOCAL_MODEL.url, /^https:\/\/huggingface\.co\/Qwen\/Qwen2\.5-1\.5B-Instruct-GGUF\/resolve\/main\/qwen2\.5-1\.5b-instruct-q4_k_m\.gguf$/);
    assert.match(DEFAULT_LOCAL_MODEL.sha256, /^[0-9a-f]{64}$/);
    assert.equal(DEFAULT_LOCAL_MODEL.licence, "Apache-2.0");
    assert.equal(downloadedModelPath(settings()), path.join(dir, "models", "qwen2.5-1.5b-instruct-q4_k_m.gguf"));
  });

  test("a mirror: its URL's file name; the default SHA-256 unless one is given", () => {
    const mirror = settings({ WRITER_LOCAL_MODEL_URL: "http://mirror.local/llm/qwen2.5-0.5b-instruct-q4_k_m.gguf" });
    assert.equal(localModelSource(mirror).sha256, DEFAULT_LOCAL_MODEL.sha256);
    assert.equal(downloadedModelPath(mirror), path.join(dir, "models", "qwen2.5-0.5b-instruct-q4_k_m.gguf"));
    const own = settings({ WRITER_LOCAL_MODEL_URL: "http://mirror.local/m", WRITER_LOCAL_MODEL_SHA256: "a".repeat(64) });
    assert.equal(localModelSource(own).sha256, "a".repeat(64));
    assert.equal(path.basename(downloadedModelPath(own)), "m.gguf");
  });

  test("a mirror's file name is its last segment after decoding: nothing leads out of MODELS_DIR (issue 66)", () => {
    const models = path.join(dir, "models");
    const nameFor = (url: string) => path.relative(models, downloadedModelPath(settings({ WRITER_LOCAL_MODEL_URL: url })));
    const cases: [string, string][] = [
      ["http://mirror.local/llm/..%2F..%2Fescaped.gguf", "escaped.gguf"],
      ["http://mirror.local/llm/%2e%2e%2f%2e%2e%2fescaped.gguf", "escaped.gguf"],
      ["http://mirror.local/llm/%2E%2E%2F%2E%2E%2F%2E%2E%2Fetc%2Fescaped", "escaped.gguf"],
      ["http://mirror.local/llm/..%5C..%5Cescaped.gguf", "escaped.gguf"],
      ["http://mirror.local/llm/..\\..\\escaped.gguf", "escaped.gguf"],
      ["http://mirror.local/llm/%2Ftmp%2Fescaped.gguf", "escaped.gguf"],
      ["http://mirror.local/llm/%2e%2e", "writer-model.gguf"],
      ["http://mirror.local/llm/..%2F", "writer-model.gguf"],
      ["http://mirror.local/llm/.writer-download.json", "writer-model.gguf"],
      ["http://mirror.local/llm/a%00b.gguf", "writer-model.gguf"],
      ["http://mirror.local/llm/%E0%A4%A.gguf", "%E0%A4%A.gguf"],
    ];
    for (const [url, name] of cases) assert.equal(nameFor(url), name, url);
  });

  test("off, too little memory, a WRITER_LOCAL_MODEL that is not there, or not downloaded yet: no model, and why", () => {
    assert.deepEqual(chooseLocalModel(settings({ WRITER_LOCAL: "off" }), PLENTY), { path: null, why: "off", reason: "the model on this machine is off (WRITER_LOCAL=off)", downloadable: false });
    const small = chooseLocalModel(settings(), LOCAL_MODEL_MIN_MEMORY - 1);
    assert.equal(small.path, null);
    assert.match(small.reason ?? "", /this machine has 4\.0 GiB of memory; the model on this machine wants 4 GiB/);
    const missing = chooseLocalModel(settings({ WRITER_LOCAL_MODEL: path.join(dir, "nope.gguf") }), PLENTY);
    assert.equal(missing.path, null);
    assert.equal(missing.reason, "WRITER_LOCAL_MODEL names a file that is not there", "no path: /api/health shows it to anyone");
    assert.deepEqual(chooseLocalModel(settings(), PLENTY), { path: null, why: "not-downloaded", reason: "the model on this machine has not been downloaded yet", downloadable: true });
  });

  test("the downloaded file, or WRITER_LOCAL_MODEL's, is used where there is memory for it", async () => {
    const own = path.join(dir, "own.gguf");
    await writeFile(own, tinyGguf());
    assert.deepEqual(chooseLocalModel(settings({ WRITER_LOCAL_MODEL: own }), PLENTY), { path: own });
    const downloaded = downloadedModelPath(settings());
    await mkdir(path.dirname(downloaded), { recursive: true });
    await writeFile(downloaded, tinyGguf());
    assert.deepEqual(chooseLocalModel(settings(), PLENTY), { path: downloaded });
    assert.equal(chooseLocalModel(settings(), 2 * 2 ** 30).path, null, "not on a 2 GiB machine, though it is there");
  });

  test("a quick look tells a GGUF from a truncated or foreign file before llama.cpp is asked", async () => {
    const good = path.join(dir, "good.gguf");
    await writeFile(good, tinyGguf());
    assert.equal(await ggufHeaderProblem(good), null);
    const short = path.join(dir, "short.gguf");
    await writeFile(short, "GGU");
    assert.equal(await ggufHeaderProblem(short), "it is too short to be a model");
    const foreign = path.join(dir, "foreign.bin");
    await writeFile(foreign, Buffer.from("lmggabcdefgh"));
    assert.equal(await ggufHeaderProblem(foreign), "it is not a GGUF file (wrong magic number)");
    assert.match((await ggufHeaderProblem(path.join(dir, "absent.gguf"))) ?? "", /cannot be read \(ENOENT\)/);
  });
});

describe("the tiny test model", () => {
  test("is GGUF v3, a few hundred KB, and the same for the same seed", () => {
    const a = tinyGguf(3);
    assert.equal(a.toString("latin1", 0, 4), "GGUF");
    assert.equal(a.readUInt32LE(4), 3);
    assert.ok(a.length > 100_000 && a.length < 1_000_000, String(a.length));
    assert.deepEqual(tinyGguf(3), a);
    assert.notDeepEqual(tinyGguf(4), a);
  });
});
