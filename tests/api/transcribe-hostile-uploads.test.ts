import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { appendFile, chmod, mkdtemp, open, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { decodeQueueSize } from "@/lib/transcription/audio/decode-audio.ts";
import { resetRecognitionEngine } from "@/lib/transcription/recognizers/select-engine.ts";
import { setUpTestDatabase, testDbKind } from "../support/database.ts";
import { createTestUser } from "../support/factories.ts";
import { withEnv } from "../support/env.ts";
import { call } from "../support/http.ts";
import { withOwnTmpdir } from "../support/own-tmpdir.ts";
import { ffmpegFixture, JFK_MP3, silence } from "../support/audio.ts";

process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
const database = setUpTestDatabase();
// Nothing here depends on the database: run it in the PGlite pass only.
const audioOnly = { skip: testDbKind === "postgres" ? "database-independent; runs in the PGlite pass" : false };

const post = (key: string, audio: Buffer) => {
  const body = new FormData();
  body.set("audio", new Blob([new Uint8Array(audio)]), "note.mp3");
  return call(transcribe, { method: "POST", path: "/transcribe", key, body });
};

let key: string;
let dir: string;
before(async () => {
  await database.ready;
  key = (await createTestUser()).key;
  dir = await mkdtemp(path.join(tmpdir(), "vd-hostile-"));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
  await resetRecognitionEngine();
});

/** A FIFO that records whether anything opened it: a read of it cannot go unnoticed. */
async function watchedFifo(name: string) {
  const fifo = path.join(dir, name);
  await promisify(execFile)("mkfifo", [fifo]);
  let opens = 0;
  let closing = false;
  // Opening for writing waits until a reader opens it; if that reader is ffmpeg, it gets real audio.
  const serve = async () => {
    while (!closing) {
      const handle = await open(fifo, "w");
      if (!closing) {
        opens += 1;
        await handle.write(await readFile(JFK_MP3)).catch(() => {});
      }
      await handle.close();
    }
  };
  const serving = serve();
  return {
    path: fifo,
    opens: () => opens,
    async close() {
      closing = true;
      const reader = await open(fifo, constants.O_RDONLY | constants.O_NONBLOCK); // releases a waiting writer
      await serving;
      await reader.close();
    },
  };
}

/** A loopback HTTP server that serves real audio and counts its requests. */
async function countingListener() {
  const mp3 = await readFile(JFK_MP3);
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits += 1;
    res.writeHead(200, { "content-type": "audio/mpeg" }).end(mp3);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/jfk.mp3`, hits: () => hits, close: () => new Promise((r) => server.close(r)) };
}

const ID3_EMPTY = Buffer.from("ID3\x04\0\0\0\0\0\0", "latin1");
const referencing: Record<string, (target: string) => string> = {
  "HLS (the reported bytes)": (t) => `#EXTM3U\n#EXTINF:11,\n${t}\n#EXT-X-ENDLIST\n`,
  "HLS with a target duration": (t) => `#EXTM3U\n#EXT-X-TARGETDURATION:11\n#EXTINF:11,\n${t}\n#EXT-X-ENDLIST\n`,
  ffconcat: (t) => `ffconcat version 1.0\nfile ${t}\nduration 11\n`,
  DASH: (t) =>
    '<?xml version="1.0"?>\n<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT11S">' +
    `<Period><AdaptationSet mimeType="audio/mpeg"><Representation id="a" bandwidth="64000"><BaseURL>${t}</BaseURL>` +
    "</Representation></AdaptationSet></Period></MPD>\n",
};

describe("uploads that name other files or URLs", audioOnly, () => {
  test("a playlist, concat list or manifest → 415; the files and URLs it names are never read", async () => {
    const fifo = await watchedFifo("jfk.mp3");
    const listener = await countingListener();
    try {
      for (const [name, list] of Object.entries(referencing)) {
        for (const target of [fifo.path, `file:${fifo.path}`, listener.url]) {
          for (const prefix of [ID3_EMPTY, Buffer.alloc(0)]) {
            const label = `${prefix.length ? "ID3 + " : ""}${name} → ${target}`;
            const res = await post(key, Buffer.concat([prefix, Buffer.from(list(target))]));
            assert.equal(res.status, 415, `${label}: ${res.text}`);
            assert.equal(res.body.error.code, "unsupported_audio", label);
          }
        }
      }
      assert.equal(fifo.opens(), 0, "the local file named in a playlist was opened");
      assert.equal(listener.hits(), 0, "the URL named in a playlist was requested");
    } finally {
      await fifo.close();
      await listener.close();
    }
  });

  test("a playlist hidden behind real MP3 frames → 415", async () => {
    const mp3 = await readFile(JFK_MP3);
    const hls = Buffer.from(referencing["HLS with a target duration"]("/etc/hostname"));
    const res = await post(key, Buffer.concat([mp3.subarray(0, 2000), hls, mp3.subarray(2000)]));
    assert.equal(res.status, 415, res.text);
    assert.equal(res.body.error.code, "unsupported_audio");
  });
});

/**
 * An FFMPEG_PATH that runs the real ffmpeg, but first notes how many run at once, and waits for
 * the file `go` to exist; after a decode it notes how many bytes of PCM it wrote.
 */
async function instrumentedFfmpeg(): Promise<{ path: string; dir: string }> {
  const work = await mkdtemp(path.join(dir, "ffmpeg-"));
  const script = path.join(work, "ffmpeg");
  await writeFile(
    script,
    `#!/bin/sh
cd "${work}" || exit 1
touch "running.$$"
ls | grep -c '^running\\.' >> started.log
while [ ! -e go ]; do sleep 0.02; done
ffmpeg "$@"; rc=$?
for last; do :; done
case "$last" in *.wav) stat -c %s "\${last#file:}" >> pcm-bytes.log 2>/dev/null || echo 0 >> pcm-bytes.log;; esac
rm "running.$$"
exit $rc
`,
  );
  await chmod(script, 0o755);
  return { path: script, dir: work };
}

const numbers = async (file: string) =>
  (await readFile(file, "utf8").catch(() => "")).split("\n").filter(Boolean).map(Number);
const running = async (work: string) => (await promisify(execFile)("ls", [work])).stdout.split("\n").filter((f) => f.startsWith("running.")).length;
const until = async (done: () => boolean | Promise<boolean>) => {
  while (!(await done())) await new Promise((r) => setTimeout(r, 20));
};

describe("decoding is bounded", audioOnly, () => {
  test("uploads beyond DECODE_CONCURRENCY wait their turn: never more ffmpeg processes at once", async () => {
    const ffmpeg = await instrumentedFfmpeg();
    await withEnv({ FFMPEG_PATH: ffmpeg.path, DECODE_CONCURRENCY: "2", DECODE_QUEUE_MAX: "16" }, async () => {
      const quiet = await silence(1);
      // Five people's uploads (one person's take turns before they reach the decoder: two at a time).
      const keys = await Promise.all([1, 2, 3, 4, 5].map(async () => (await createTestUser()).key));
      const responses = Promise.all(keys.map((k) => post(k, quiet)));
      // All five are in: two decoding (held at the gate), three waiting. More at the gate is the bug.
      await until(async () => {
        const { running: r, waiting } = decodeQueueSize();
        return (r === 2 && waiting === 3) || (await running(ffmpeg.dir)) > 2;
      });
      assert.equal(await running(ffmpeg.dir), 2);
      await appendFile(path.join(ffmpeg.dir, "go"), "");
      for (const res of await responses) assert.equal(res.body.error?.code, "no_speech", res.text);
      const started = await numbers(path.join(ffmpeg.dir, "started.log"));
      assert.equal(started.length, 10, "each upload: one look at the header, one decode");
      assert.ok(Math.max(...started) <= 2, `ffmpeg processes at once: ${started}`);
    })();
  });

  test("a full decode queue → 503 engine_busy with Retry-After", async () => {
    const ffmpeg = await instrumentedFfmpeg();
    await withEnv({ FFMPEG_PATH: ffmpeg.path, DECODE_CONCURRENCY: "1", DECODE_QUEUE_MAX: "1" }, async () => {
      const quiet = await silence(1);
      const settled: Awaited<ReturnType<typeof post>>[] = [];
      // Three people's uploads: the decoder's queue is everyone's.
      const keys = await Promise.all([1, 2, 3].map(async () => (await createTestUser()).key));
      const responses = Promise.all(keys.map((k) => post(k, quiet).then((r) => (settled.push(r), r))));
      await until(async () => settled.length > 0 || (await running(ffmpeg.dir)) > 1);
      await appendFile(path.join(ffmpeg.dir, "go"), "");
      const all = await responses;
      assert.equal(settled[0].status, 503, settled[0].text);
      assert.equal(settled[0].body.error.code, "engine_busy");
      assert.match(settled[0].headers.get("retry-after") ?? "", /^\d+$/);
      assert.deepEqual(all.map((r) => r.body.error.code).sort(), ["engine_busy", "no_speech", "no_speech"]);
    })();
  });

  test("a file whose header says it is too long → 413 before any PCM is written", async () => {
    const ffmpeg = await instrumentedFfmpeg();
    await appendFile(path.join(ffmpeg.dir, "go"), "");
    const silentOpus = await ffmpegFixture("ten-minutes.ogg", ["-f", "lavfi", "-i", "anullsrc=r=48000:cl=mono", "-t", "600", "-c:a", "libopus", "-b:a", "6k"]);
    await withEnv({ FFMPEG_PATH: ffmpeg.path, MAX_AUDIO_SECONDS: "60" }, async () => {
      const res = await post(key, silentOpus);
      assert.equal(res.status, 413, res.text);
      assert.equal(res.body.error.code, "audio_too_long");
      assert.match(res.body.error.message, /1 min/);
    })();
    assert.deepEqual(await numbers(path.join(ffmpeg.dir, "pcm-bytes.log")), [], "no decode ran");
  });

  test("a file without a stated duration → 413, having decoded no more than just past the limit", async () => {
    const ffmpeg = await instrumentedFfmpeg();
    await appendFile(path.join(ffmpeg.dir, "go"), "");
    // Raw ADTS has no duration in any header: ffmpeg only estimates one from the bitrate.
    const adts = await ffmpegFixture("two-minutes.aac", ["-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", "120", "-c:a", "aac", "-b:a", "16k", "-f", "adts"]);
    await withEnv({ FFMPEG_PATH: ffmpeg.path, MAX_AUDIO_SECONDS: "30" }, async () => {
      const res = await post(key, adts);
      assert.equal(res.status, 413, res.text);
      assert.equal(res.body.error.code, "audio_too_long");
    })();
    const [written] = await numbers(path.join(ffmpeg.dir, "pcm-bytes.log"));
    assert.ok(written > 30 * 32_000 && written <= 31 * 32_000 + 1024, `${written} bytes of PCM`);
  });
});

describe("a client that leaves mid-upload", audioOnly, () => {
  /** A multipart body that sends `bytes` of a declared 30 MB upload, then fails as Node's request does when the socket closes. */
  function abortedBody(bytes: number): { body: ReadableStream<Uint8Array>; type: string } {
    const boundary = "vdAbortBoundary";
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) {
          sent += head.length;
          return controller.enqueue(new Uint8Array(head));
        }
        if (sent >= bytes) return controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
        const chunk = Math.min(64 * 1024, bytes - sent);
        sent += chunk;
        controller.enqueue(new Uint8Array(chunk).fill(0x52));
      },
    });
    return { body, type: `multipart/form-data; boundary=${boundary}` };
  }

  for (const bytes of [200, 10 * 1024 * 1024]) {
    test(`after ${bytes} bytes: a 4xx, no unhandled rejection, no temporary file left`, async () => {
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => rejections.push(reason);
      process.on("unhandledRejection", onRejection);
      try {
        await withOwnTmpdir(async (uploadDirsLeft) => {
          const { body, type } = abortedBody(bytes);
          const res = await call(transcribe, { method: "POST", path: "/transcribe", key, body, headers: { "content-type": type, "content-length": String(30 * 1024 * 1024) } });
          assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${res.text.slice(0, 200)}`);
          await new Promise((r) => setTimeout(r, 300)); // a stray rejection surfaces within a few ticks
          assert.deepEqual(rejections.map(String), []);
          assert.deepEqual(await uploadDirsLeft(), []);
        });
      } finally {
        process.off("unhandledRejection", onRejection);
      }
    });
  }
});
