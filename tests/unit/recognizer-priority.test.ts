import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { resetEnvCache } from "@/lib/env.ts";
import { niceFor } from "@/lib/transcription/recognizers/priority.ts";
import { PocketsphinxEngine } from "@/lib/transcription/recognizers/pocketsphinx.ts";
import { JFK_WAV } from "@/tests/support/audio.ts";
import { withEnv } from "../support/env.ts";

// Recognizers run below request handling (RECOGNIZER_NICE): the real pocketsphinx child, watched in /proc.

/** The niceness of this process's children named `name` (field 19 of /proc/<pid>/stat), as seen now. */
function childNiceness(name: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const command = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === process.pid && name.startsWith(command)) found.push(Number(fields[16]));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

async function niceDuringRecognition(nice: string): Promise<number[]> {
  process.env.RECOGNIZER_NICE = nice;
  resetEnvCache();
  const engine = new PocketsphinxEngine({ binary: "pocketsphinx_continuous", modelDir: "/usr/share/pocketsphinx/model/en-us", maxQueue: 1 });
  const seen = new Set<number>();
  const running = engine.recognize({ wavPath: JFK_WAV } as Parameters<PocketsphinxEngine["recognize"]>[0]);
  let done = false;
  void running.finally(() => (done = true));
  while (!done) {
    for (const n of childNiceness("pocketsphinx_continuous")) seen.add(n);
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.match((await running).text, /\w/);
  return [...seen];
}

test("the pocketsphinx child runs at RECOGNIZER_NICE (default 10), and at 0 when it is off", async () => {
  try {
    assert.deepEqual(await niceDuringRecognition("10"), [10]);
    assert.deepEqual(await niceDuringRecognition("0"), [0]);
  } finally {
    delete process.env.RECOGNIZER_NICE;
    resetEnvCache();
  }
});

// Which niceness each kind of recognition work asks for (priority.ts).

test(
  "work that keeps pace with speech runs as requests do; live pieces and uploads niced; background lowest",
  withEnv({ RECOGNIZER_NICE: "10", RECOGNIZER_BACKGROUND_NICE: "19", RECOGNIZER_REALTIME_NICE: "0" }, async () => {
    assert.equal(niceFor("realtime"), 0);
    assert.equal(niceFor("live"), 10);
    assert.equal(niceFor("normal"), 10);
    assert.equal(niceFor(), 10);
    assert.equal(niceFor("background"), 19);
  }),
);

test(
  "realtime is never niced below the rest, background never above it",
  withEnv({ RECOGNIZER_NICE: "3", RECOGNIZER_BACKGROUND_NICE: "1", RECOGNIZER_REALTIME_NICE: "7" }, async () => {
    assert.equal(niceFor("realtime"), 3);
    assert.equal(niceFor("background"), 3);
  }),
);
