import assert from "node:assert/strict";
import { test } from "node:test";
import { niceFor } from "@/lib/transcription/recognizers/priority.ts";
import { withEnv } from "../support/env.ts";

// Which CPU priority each kind of recognition work runs at (priority.ts).

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
