import assert from "node:assert/strict";
import { test } from "node:test";
import { writerFor, writerSettings, type WriterTask } from "@/lib/writer/providers.ts";
import { withEnv } from "@/tests/support/env.ts";

// Which task the model writes, decided in one place (lib/writer/providers.ts). The insights'
// default without a writer (offline) moved here from offline-insights.test.ts.

const TASKS: WriterTask[] = ["clean-up", "insights", "posts", "rewrites", "answers"];
const by = () => Object.fromEntries(TASKS.map((task) => [task, writerFor(task)]));
const NONE = { WRITER_BASE_URL: "", OPTIMIZER: "auto", CONTENT_GENERATOR: "local" };

test("no writer set up: the rules write everything", withEnv(NONE, async () => {
  assert.equal(writerSettings(), null);
  assert.deepEqual(by(), { "clean-up": "rules", insights: "rules", posts: "rules", rewrites: "rules", answers: "rules" });
}));

test("a writer set up: the model writes everything", withEnv({ ...NONE, WRITER_BASE_URL: "http://127.0.0.1:9/v1" }, async () => {
  assert.deepEqual(by(), { "clean-up": "model", insights: "model", posts: "model", rewrites: "model", answers: "model" });
}));

test("OPTIMIZER decides the clean-up alone: off, local rules beside a model, or the older names", async () => {
  const writer = { ...NONE, WRITER_BASE_URL: "http://127.0.0.1:9/v1" };
  await withEnv({ ...writer, OPTIMIZER: "off" }, async () => assert.equal(writerFor("clean-up"), "off"))();
  await withEnv({ ...writer, OPTIMIZER: "local" }, async () => {
    assert.equal(writerFor("clean-up"), "rules");
    assert.equal(writerFor("posts"), "model");
  })();
  // OPTIMIZER=openai (the older name) sets up the writer from OPENAI_* for every task.
  await withEnv({ ...NONE, OPTIMIZER: "openai" }, async () => {
    assert.equal(writerSettings()?.namedBy, "OPENAI_BASE_URL");
    assert.deepEqual(by(), { "clean-up": "model", insights: "model", posts: "model", rewrites: "model", answers: "model" });
  })();
  await withEnv({ ...NONE, CONTENT_GENERATOR: "openai" }, async () => assert.equal(writerFor("posts"), "model"))();
});
