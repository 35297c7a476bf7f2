import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { OpenAiEngine } from "@/lib/transcription/recognizers/openai.ts";

const exec = promisify(execFile);

// A real HTTP peer speaking OpenAI's /audio/transcriptions; it records the size of each upload.
describe("the openai engine with long audio", () => {
  let dir: string;
  let server: http.Server;
  let baseUrl: string;
  const uploads: number[] = [];

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "vd-openai-engine-"));
    server = http.createServer(async (req, res) => {
      let size = 0;
      for await (const part of req) size += (part as Buffer).length;
      uploads.push(size);
      const n = uploads.length;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ text: `piece ${n}`, language: "english", segments: [{ start: 1, end: 2, text: ` piece ${n} ` }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  test("goes up in pieces under OpenAI's 25 MB limit; text joined, timestamps shifted", async () => {
    const wavPath = path.join(dir, "audio.wav");
    await exec("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", "1300", "-c:a", "pcm_s16le", wavPath]);
    assert.ok((await stat(wavPath)).size > 25 * 1024 * 1024, "the whole file is over the limit");
    const engine = new OpenAiEngine({ baseUrl, model: "whisper-1", maxQueue: 1 });
    const result = await engine.recognize({ wavPath, durationSec: 1300 });
    assert.equal(uploads.length, 3);
    for (const size of uploads) assert.ok(size < 25 * 1024 * 1024, `a piece of ${size} bytes`);
    assert.equal(result.text, "piece 1 piece 2 piece 3");
    assert.deepEqual(result.segments.map((s) => s.start), [1, 601, 1201]);
    assert.equal(result.segments[2].text, "piece 3");
  });
});
