import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, beforeEach, describe, test } from "node:test";
import { z } from "zod";
import { GET as health } from "@/app/api/health/route.ts";
import { POST as createRewrite } from "@/app/api/v1/transcriptions/[id]/rewrites/route.ts";
import { db } from "@/lib/db/client.ts";
import { generateVariantJob } from "@/lib/posts/generation/generation-job.ts";
import { refreshInsights } from "@/lib/insights/refresh-insights.ts";
import { writeInsightsJob } from "@/lib/insights/writer-insights-job.ts";
import { runCleanUp } from "@/lib/clean-up/run-clean-up.ts";
import { startCleanUp } from "@/lib/clean-up/start-clean-up.ts";
import { readDownloadStatus } from "@/lib/downloads/download-status.ts";
import { startLocalModelDownload, WRITER_DOWNLOAD_STATUS } from "@/lib/writer/local/model-download.ts";
import { localModelOnItsWay } from "@/lib/writer/local/status.ts";
import { CONTEXT_TOKENS, forgetLocalModelFailure, localModelState, localModelUsage, unloadLocalModel } from "@/lib/writer/local/runtime.ts";
import { writerFor } from "@/lib/writer/providers.ts";
import { resetWriterState, writeObject, writerStatus, writeText } from "@/lib/writer/writer.ts";
import { writtenInsights } from "@/lib/writer/prompts/insights.ts";
import { writerInsights } from "@/lib/insights/writer-insights.ts";
import { writePost } from "@/lib/posts/generators/writer.ts";
import { content, createChannel, createMaster, setUpContentTests } from "@/tests/api/content-support.ts";
import { createTestNote, createTestUser } from "@/tests/support/factories.ts";
import { withEnv } from "@/tests/support/env.ts";
import { call } from "@/tests/support/http.ts";
import { standInWriter } from "@/tests/support/stand-in-writer.ts";
import { tinyGguf } from "@/tests/support/tiny-gguf.ts";
import { env } from "@/lib/env.ts";
import { reportLiveWork } from "@/lib/live-work.ts";

// The model on this machine, end to end, on a tiny random-weight GGUF (tests/support/tiny-gguf.ts)
// that node-llama-cpp really loads and generates with: its download from a stand-in host (resumed
// after a dropped connection, refused on a wrong SHA-256), then insights, posts, clean-up and
// rewrites written by it (or refused by the guards, which say why: the tiny model writes
// nonsense; the path is under test, not the prose), a remote writer winning over it, the unload
// after idle, and a corrupt file leaving the rules to write, with the reason, and no 5xx.

setUpContentTests({ workers: false });
const ctx = { jobId: "test", attempt: 1, lastAttempt: true };
const MODEL = tinyGguf(7);
const SHA256 = createHash("sha256").update(MODEL).digest("hex");

const dir = await mkdtemp(path.join(tmpdir(), "vd-writer-local-"));
const modelPath = path.join(dir, "tiny.gguf");
await writeFile(modelPath, MODEL);
after(async () => {
  await unloadLocalModel();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  resetWriterState();
  forgetLocalModelFailure();
});

const local = (vars: Record<string, string> = {}) => ({ WRITER_LOCAL: "auto", WRITER_LOCAL_MODEL: modelPath, WRITER_TIMEOUT_SECONDS: "60", ...vars });
const { chat, env: remote } = await standInWriter(() => ({ content: JSON.stringify({ title: "", posts: ["Postgres now, after four hours."] }) }));

const NOTE = "We moved our main database from MySQL to Postgres last week. The migration took four hours. Kubernetes made the rollout boring, which is the point.";

/** A stand-in model host: serves `body`, honouring Range; `cutAfter` bytes into the first full answer it drops the connection. */
async function modelHost(body: Buffer, { cutAfter }: { cutAfter?: number } = {}) {
  const requests: { range?: string; authorization?: string }[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push({ range: req.headers.range, authorization: req.headers.authorization });
    const match = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
    const start = match ? Number(match[1]) : 0;
    if (start >= body.length) {
      res.writeHead(416, { "content-range": `bytes */${body.length}` }).end();
      return;
    }
    const part = body.subarray(start);
    const headers = { "content-length": String(part.length), "accept-ranges": "bytes", ...(match ? { "content-range": `bytes ${start}-${body.length - 1}/${body.length}` } : {}) };
    res.writeHead(match ? 206 : 200, headers);
    if (cutAfter !== undefined && requests.length === 1) {
      // The bytes so far reach the client, then the connection closes short of Content-Length.
      res.write(part.subarray(0, cutAfter), () => setTimeout(() => res.socket?.end(), 50));
      return;
    }
    res.end(part);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/models/tiny.gguf`, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const quietLog = { info: () => undefined, warn: () => undefined, debug: () => undefined };

describe("the local writer's model download", () => {
  test("a dropped connection is resumed with a Range request; the file is checked and put in place", async () => {
    const host = await modelHost(MODEL, { cutAfter: 100_000 });
    const destination = path.join(dir, "download", "tiny.gguf");
    let ready = "";
    try {
      const download = startLocalModelDownload({ url: host.url, sha256: SHA256, destination, retryDelayMs: () => 20, log: quietLog, onReady: (p) => (ready = p) });
      await download.done;
      assert.equal(ready, destination);
      assert.deepEqual(await readFile(destination), MODEL);
      assert.equal(host.requests.length, 2, JSON.stringify(host.requests));
      assert.equal(host.requests[0].range, undefined);
      assert.equal(host.requests[1].range, "bytes=100000-", "the second request continues where the first was cut");
      assert.equal(readDownloadStatus(path.dirname(destination), env().dataDir, WRITER_DOWNLOAD_STATUS), null, "no progress once it is done");
    } finally {
      await host.close();
    }
  });

  test("a file that does not match the pinned SHA-256 is refused and discarded, and the status says why", async () => {
    const host = await modelHost(MODEL);
    const destination = path.join(dir, "mismatch", "tiny.gguf");
    try {
      const download = startLocalModelDownload({ url: host.url, sha256: "0".repeat(64), destination, retryDelayMs: () => 60_000, log: quietLog });
      let status = null;
      for (let i = 0; i < 200 && status?.state !== "waiting"; i++) {
        await new Promise((r) => setTimeout(r, 20));
        status = readDownloadStatus(path.dirname(destination), env().dataDir, WRITER_DOWNLOAD_STATUS);
      }
      assert.equal(status?.state, "waiting");
      assert.match(status?.error ?? "", /the file that arrived was damaged or not the expected one, so it was discarded/);
      assert.equal(existsSync(destination), false, "nothing is put in place");
      assert.equal(existsSync(path.join(path.dirname(destination), ".tiny.gguf.part")), false, "the bad file is discarded");
      await download.stop();
    } finally {
      await host.close();
    }
  });

  test(
    "while it downloads, the rules write, and /api/health and the writer's status show the progress; a failed attempt is waiting, not downloading",
    withEnv({ WRITER_LOCAL: "auto", MODELS_DIR: path.join(tmpdir(), `vd-models-${randomUUID()}`) }, async () => {
      const modelsDir = env().MODELS_DIR;
      const host = await modelHost(MODEL, { cutAfter: 50_000 });
      try {
        const download = startLocalModelDownload({ url: host.url, sha256: SHA256, destination: path.join(modelsDir, "qwen2.5-1.5b-instruct-q4_k_m.gguf"), retryDelayMs: () => 60_000, log: quietLog });
        for (let i = 0; i < 200 && readDownloadStatus(modelsDir, env().dataDir, WRITER_DOWNLOAD_STATUS)?.state !== "waiting"; i++) await new Promise((r) => setTimeout(r, 20));
        assert.equal(writerFor("posts"), "rules", "not there yet: the rules write");
        const res = await call(health, { path: "/api/health" });
        assert.equal(res.body.writing.written_by, "offline");
        // Its download failed and waits to try again: health never says downloading then (issue 69).
        assert.equal(res.body.writing.local_model.state, "waiting");
        assert.equal(res.body.writing.local_model.download.state, "waiting");
        assert.equal(res.body.writing.local_model.download.received_bytes, 50_000);
        assert.equal(res.body.writing.local_model.download.total_bytes, MODEL.length);
        assert.match(res.body.writing.local_model.download.failed_at, /^\d{4}-\d\d-\d\dT/, "times in ISO, in their own fields");
        assert.ok(Date.parse(res.body.writing.local_model.download.retry_at) > Date.parse(res.body.writing.local_model.download.failed_at));
        assert.match(res.body.writing.says, /^could not download: [a-z][^\d]*$/, "in words, no time or count in the sentence");
        assert.equal(res.body.writing.local_model.reason, res.body.writing.local_model.download.error);
        const status = writerStatus();
        assert.ok(!status.configured && status.local.state === "waiting" && status.local.download?.state === "waiting");
        assert.equal(status.writing.says, res.body.writing.says, "Settings → Writing says the same");
        assert.deepEqual(localModelOnItsWay(), { state: "waiting", percent: Math.floor((50_000 / MODEL.length) * 100) }, "what each post card says meanwhile");
        await download.stop();
      } finally {
        await host.close();
        await rm(modelsDir, { recursive: true, force: true });
      }
    }),
  );
});

describe("what /api/health shows anyone of the download (issue 66)", () => {
  const SECRETS = ["mirror-user", "s3cret-pass", "tok-123", "token=", "http", "127.0.0.1"];

  /** Waits for the download's first failure, then returns /api/health's text and the writer's status. */
  async function failedOnce(url: string, sha256: string) {
    const modelsDir = env().MODELS_DIR;
    const download = startLocalModelDownload({ url, sha256, destination: path.join(modelsDir, "qwen2.5-1.5b-instruct-q4_k_m.gguf"), retryDelayMs: () => 60_000, log: quietLog });
    try {
      for (let i = 0; i < 200 && readDownloadStatus(modelsDir, env().dataDir, WRITER_DOWNLOAD_STATUS)?.state !== "waiting"; i++) await new Promise((r) => setTimeout(r, 20));
      const res = await call(health, { path: "/api/health" });
      assert.equal(res.body.writing.local_model.download?.state, "waiting", res.text);
      // All of health but this server's own public address (issue 68), which it shows on purpose.
      const { public_address: _own, ...shown } = res.body;
      return { text: JSON.stringify(shown), error: res.body.writing.local_model.download.error as string, status: JSON.stringify(writerStatus()) };
    } finally {
      await download.stop();
    }
  }

  test(
    "a mirror's user, password and query, and the models folder, never show; the user and password reach the mirror",
    withEnv({ WRITER_LOCAL: "auto", MODELS_DIR: path.join(tmpdir(), `vd-models-${randomUUID()}`) }, async () => {
      const modelsDir = env().MODELS_DIR;
      const host = await modelHost(MODEL);
      const mirror = new URL(host.url);
      mirror.username = "mirror-user";
      mirror.password = "s3cret-pass";
      mirror.search = "?token=tok-123";
      const closed = await modelHost(MODEL);
      await closed.close();
      try {
        const refused = await failedOnce(mirror.href, "0".repeat(64));
        assert.equal(host.requests[0]?.authorization, `Basic ${Buffer.from("mirror-user:s3cret-pass").toString("base64")}`);
        assert.match(refused.error, /damaged or not the expected one/);
        const unreachable = await failedOnce(closed.url.replace("//", "//mirror-user:s3cret-pass@") + "?token=tok-123", SHA256);
        assert.match(unreachable.error, /could not be reached/);
        for (const shown of [refused.text, refused.status, unreachable.text, unreachable.status]) {
          for (const secret of [...SECRETS, modelsDir, tmpdir()]) assert.ok(!shown.includes(secret), `${secret} shown in ${shown}`);
        }
      } finally {
        await host.close();
        await rm(modelsDir, { recursive: true, force: true });
      }
    }),
  );

  test(
    "a WRITER_LOCAL_MODEL that is not there is said without its path",
    withEnv({ WRITER_LOCAL: "auto", WRITER_LOCAL_MODEL: path.join(dir, "secret-folder", "absent.gguf") }, async () => {
      const res = await call(health, { path: "/api/health" });
      assert.equal(res.body.writing.local_model.state, "unavailable");
      assert.match(res.body.writing.local_model.reason, /WRITER_LOCAL_MODEL names a file that is not there/);
      assert.ok(!res.text.includes("secret-folder") && !res.text.includes(dir), res.text);
    }),
  );
});

describe("writing with the model on this machine", () => {
  test(
    "it is the writer for every task; an answer under the JSON-schema grammar always parses",
    withEnv(local(), async () => {
      assert.equal(writerFor("posts"), "model");
      assert.equal(writerFor("insights"), "model");
      assert.equal(writerFor("clean-up"), "model");
      const schema = writtenInsights({ title: 80, summary: 300, keyPoints: 3, actionItems: 3 });
      const outcome = await writeObject({ schema, name: "insights", system: "Summarize the note.", prompt: NOTE });
      // Nonsense, but in the form asked for: the grammar is the schema's.
      assert.ok(outcome.ok, outcome.ok ? "" : outcome.reason);
      assert.equal(outcome.by, "local-model");
      assert.equal(outcome.model, "tiny");
      assert.equal(typeof outcome.value.title, "string");
      assert.ok(outcome.value.key_points.length <= 3);
      assert.equal(localModelState().loaded, true);
      const res = await call(health, { path: "/api/health" });
      assert.equal(res.body.writing.written_by, "local-model");
      assert.equal(res.body.writing.local_model.state, "ready");
      assert.equal(res.body.writing.local_model.loaded, true);
    }),
  );

  test(
    "insights: written by the local model, or kept offline with the guard's reason",
    withEnv(local(), async () => {
      const user = await createTestUser();
      const note = await createTestNote(user, NOTE);
      await refreshInsights({ userId: user.id, id: note.id });
      await writeInsightsJob.run({ userId: user.id, transcriptionId: note.id }, ctx);
      const row = await (await db()).note.findUniqueOrThrow({ where: { id: note.id } });
      const insights = row.insights as { written_by: string; offline_reason: string | null; title: string };
      assert.ok(["local-model", "offline"].includes(insights.written_by), insights.written_by);
      if (insights.written_by === "offline") assert.match(insights.offline_reason ?? "", /which the note does not|model on this machine/);
      else assert.equal(insights.offline_reason, null);
      assert.ok(insights.title);
    }),
  );

  test(
    "posts: generated by the local model, or by the rules with the new-facts check's reason",
    withEnv(local(), async () => {
      const user = await createTestUser();
      const channel = await createChannel(user.key, "bluesky");
      const master = await createMaster(user.key, NOTE);
      const made = await content.variants(user.key, master.id, { client_request_id: "l", targets: [{ channel_id: channel, preset_id: "builtin-standard" }] });
      assert.equal(made.status, 201, made.text);
      await generateVariantJob.run({ taskId: made.body.variants[0].task_id }, ctx);
      const variant = (await content.get(user.key, made.body.variants[0].variant_id)).body.item;
      assert.equal(variant.generation.state, "succeeded", JSON.stringify(variant.generation));
      assert.equal(variant.generation.generator, "writer");
      assert.ok(["local-model", "offline"].includes(variant.generation.written_by), variant.generation.written_by);
      if (variant.generation.written_by === "offline") assert.match(variant.generation.offline_reason, /which the note does not|model on this machine/);
      assert.ok(variant.body.length > 0);
    }),
  );

  test(
    "clean-up: the local model's text goes through the clean-up guard like a remote writer's",
    withEnv(local(), async () => {
      const user = await createTestUser();
      const text = "so um we moved the database to postgres last week and uh it took four hours";
      const workflowId = await startCleanUp({ userId: user.id, requestHash: randomUUID(), transcript: { text, segments: [] }, requestDictionary: [], durationSec: 5 });
      assert.ok(workflowId);
      const queued = await (await db()).cleanUpWorkflow.findUniqueOrThrow({ where: { id: workflowId } });
      assert.equal(queued.mode, "background", "even a short note's: no upload waits for the model on this machine");
      assert.equal(await runCleanUp({ workflowId }), "completed");
      const workflow = await (await db()).cleanUpWorkflow.findUniqueOrThrow({ where: { id: workflowId } });
      assert.equal(workflow.optimizer, "openai", "the writer's clean-up (the interface's name for it)");
      assert.equal(workflow.status, "completed");
      // Nonsense from the tiny model changes too many words: the guard keeps the person's words (tidied
      // by the rules), and says so.
      if (workflow.rejectedReason) {
        assert.match(workflow.rejectedReason, /clean-up was not used/);
        assert.equal(workflow.optimizedText, "So we moved the database to postgres last week and it took four hours.");
      } else assert.ok(workflow.optimizedText);
    }),
  );

  test(
    "rewrites: written by the local model, or offline with the reason; never a 5xx",
    withEnv(local(), async () => {
      const user = await createTestUser();
      const note = await createTestNote(user, `${NOTE} I need to call Anna about the invoice before Friday.`);
      await refreshInsights({ userId: user.id, id: note.id });
      const res = await call(createRewrite, { method: "POST", path: `/api/v1/transcriptions/${note.id}/rewrites`, params: { id: note.id }, key: user.key, json: { style: "todo_list" } });
      assert.equal(res.status, 201, res.text);
      assert.ok(["local-model", "offline"].includes(res.body.rewrite.written_by), res.body.rewrite.written_by);
      if (res.body.rewrite.written_by === "local-model") assert.equal(res.body.rewrite.offline_reason, null);
    }),
  );

  test(
    "a writer named by WRITER_BASE_URL wins over the model on this machine",
    withEnv({ ...local(), ...remote() }, async () => {
      const outcome = await writeObject({ schema: z.object({ title: z.string(), posts: z.array(z.string()) }), name: "post", system: "Write.", prompt: NOTE });
      assert.ok(outcome.ok);
      assert.equal(outcome.by, "writer");
      assert.equal(chat.requests.length, 1);
      const res = await call(health, { path: "/api/health" });
      assert.equal(res.body.writing.written_by, "writer");
    }),
  );

  test(
    "a note too long for the model's context is refused at once, saying so (the rules write it)",
    withEnv(local(), async () => {
      const long = Array.from({ length: 900 }, (_, i) => `Sentence ${i} of a long note.`).join(" ");
      const outcome = await writeObject({ schema: z.object({ title: z.string() }), name: "t", system: "Title it.", prompt: long });
      assert.ok(!outcome.ok);
      assert.equal(outcome.kind, "refused");
      // In words; the token counts go to the log (issue 69).
      assert.equal(outcome.reason, "the note is too long for the model on this machine");
    }),
  );

  test(
    "a note longer than the context: its insights, posts and rewrites are written from its main sentences; its clean-up is refused (it copies all of it)",
    withEnv(local(), async () => {
      // Recognized speech without punctuation, and one sentence that matters, near the end.
      const rambling = Array.from({ length: 700 }, (_, i) => `and then we talked about item ${i} for a while`).join(" ");
      const long = `${rambling}. The database moved to Postgres on Friday, and the migration report goes to Maria on Monday. ${rambling}`;
      const before = localModelUsage();
      const outcome = await writeObject({ schema: z.object({ title: z.string() }), name: "t", system: "Title it.", prompt: { note: long, task: "Task: a title." } });
      assert.ok(outcome.ok, JSON.stringify(outcome));
      assert.equal(outcome.by, "local-model");
      const used = localModelUsage();
      assert.equal(used.generations - before.generations, 1);
      assert.ok(used.promptTokens - before.promptTokens < CONTEXT_TOKENS, `the prompt read fits the context: ${used.promptTokens - before.promptTokens} tokens`);
      const text = await writeText({ system: "Clean it up.", prompt: { note: long, task: "Task: the clean text." } });
      assert.ok(!text.ok && text.reason === "the note is too long for the model on this machine", JSON.stringify(text));
    }),
  );

  test(
    "one generation at a time: calls at once take turns (the context has one sequence), and each is answered",
    withEnv(local(), async () => {
      const ask = () => writeObject({ schema: z.object({ title: z.string() }), name: "t", system: "Title it.", prompt: NOTE });
      const outcomes = await Promise.all([ask(), ask(), ask()]);
      for (const outcome of outcomes) assert.ok(outcome.ok && outcome.by === "local-model", JSON.stringify(outcome));
    }),
  );

  test(
    "a generation waits while a live recording is heard, then goes on",
    withEnv(local(), async () => {
      let live = 1;
      reportLiveWork(() => live);
      try {
        const started = Date.now();
        setTimeout(() => (live = 0), 500);
        const outcome = await writeObject({ schema: z.object({ title: z.string() }), name: "t", system: "Title it.", prompt: NOTE });
        assert.ok(outcome.ok, JSON.stringify(outcome));
        assert.ok(Date.now() - started >= 500, "it started only once the recording was no longer heard");
      } finally {
        reportLiveWork(() => 0);
      }
    }),
  );

  test(
    "unused for WRITER_LOCAL_IDLE_MINUTES, the model is unloaded, and loaded again on the next use",
    withEnv(local({ WRITER_LOCAL_IDLE_MINUTES: "0.005" }), async () => {
      const outcome = await writeObject({ schema: z.object({ title: z.string().max(400) }), name: "t", system: "Title it.", prompt: NOTE });
      assert.ok(outcome.ok || outcome.kind === "malformed");
      assert.equal(localModelState().loaded, true);
      for (let i = 0; i < 100 && localModelState().loaded; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(localModelState().loaded, false, "unloaded after 0.3 s unused");
      await writeObject({ schema: z.object({ title: z.string().max(400) }), name: "t", system: "Title it.", prompt: NOTE });
      assert.equal(localModelState().loaded, true);
    }),
  );
});

/** Holds the model's turn for `ms`: a live recording is heard, so the generation that has the turn waits (lib/live-work.ts). */
function holdTheModel(ms: number): () => void {
  let live = 1;
  reportLiveWork(() => live);
  const timer = setTimeout(() => (live = 0), ms);
  return () => {
    clearTimeout(timer);
    reportLiveWork(() => 0);
  };
}

describe("limits that fit a slow machine", () => {
  const title = z.object({ title: z.string() });

  test(
    "a call waiting for its turn is shown waiting and never timed out; the breaker counts no wait",
    withEnv(local({ WRITER_TIMEOUT_SECONDS: "2" }), async () => {
      await writeObject({ schema: title, name: "t", system: "Title it.", prompt: NOTE, maxTokens: 16 }); // loaded
      const release = holdTheModel(3000);
      try {
        const started = Date.now();
        const startedAfter: Record<string, number> = {};
        const ask = (name: string) => writeObject({ schema: title, name: "t", system: "Title it.", prompt: NOTE, onStart: () => (startedAfter[name] = Date.now() - started) });
        const outcomes = await Promise.all([ask("first"), ask("second")]);
        for (const outcome of outcomes) assert.ok(outcome.ok, JSON.stringify(outcome));
        // Until its turn a call is waiting (not started); the 2 s limit counts from its start.
        assert.ok(startedAfter.first >= 3000, JSON.stringify(startedAfter));
        assert.ok(startedAfter.second >= startedAfter.first, "the second started once the first was done");
        const status = writerStatus();
        assert.ok(status.configured);
        assert.equal(status.open, false);
        assert.equal(status.consecutiveFailures, 0);
      } finally {
        release();
      }
    }),
  );

  test(
    "a generation that runs out of time is one failure of the model, not a reason to skip the next",
    withEnv(local({ WRITER_TIMEOUT_SECONDS: "0.001" }), async () => {
      const outcome = await writeObject({ schema: title, name: "t", system: "Title it.", prompt: NOTE, maxTokens: 64 });
      assert.ok(!outcome.ok);
      assert.equal(outcome.kind, "down");
      assert.match(outcome.reason, /^the model on this machine took too long on it$/);
      const status = writerStatus();
      assert.ok(status.configured);
      assert.equal(status.open, false, "the model on this machine is slow on this task, not gone");
      assert.equal(status.consecutiveFailures, 1);
      const next = await writeObject({ schema: title, name: "t", system: "Title it.", prompt: NOTE, maxTokens: 64 });
      assert.notEqual(!next.ok && next.kind, "skipped");
    }),
  );

  test(
    "a post's job retried while its first run still waits for the model generates nothing; the post is written once",
    withEnv(local(), async () => {
      const user = await createTestUser();
      const channel = await createChannel(user.key, "x");
      const master = await createMaster(user.key, NOTE);
      const made = await content.variants(user.key, master.id, { client_request_id: "e", targets: [{ channel_id: channel, preset_id: "builtin-standard" }] });
      assert.equal(made.status, 201, made.text);
      const { task_id: taskId, variant_id: variantId } = made.body.variants[0];
      await writeObject({ schema: title, name: "t", system: "Title it.", prompt: NOTE, maxTokens: 16 }); // loaded
      const before = localModelUsage().generations;
      const release = holdTheModel(1500);
      try {
        const first = generateVariantJob.run({ taskId }, { ...ctx, attempt: 1, lastAttempt: false });
        const prisma = await db();
        for (let i = 0; i < 100 && !(await prisma.generationTask.findUniqueOrThrow({ where: { id: taskId } })).heartbeatAt; i++) await new Promise((r) => setTimeout(r, 20));
        // pg-boss presumed the first run lost (its expiry passed) and started the retry.
        await generateVariantJob.run({ taskId }, { ...ctx, attempt: 2, lastAttempt: true });
        const waiting = (await content.get(user.key, variantId)).body.item;
        assert.equal(waiting.generation.state, "queued", "waiting for the model, shown as waiting");
        await first;
      } finally {
        release();
      }
      assert.equal(localModelUsage().generations - before, 1, "one generation for the post");
      const variant = (await content.get(user.key, variantId)).body.item;
      assert.equal(variant.generation.state, "succeeded");
      // A run after it was written (a retry after a crash past the write) writes nothing again.
      await generateVariantJob.run({ taskId }, ctx);
      assert.equal(localModelUsage().generations - before, 1);
      assert.equal((await content.get(user.key, variantId)).body.item.body, variant.body);
    }),
  );

  test(
    "a task whose run died (its heartbeat stopped) is taken by the next run and written",
    withEnv(local(), async () => {
      const user = await createTestUser();
      const channel = await createChannel(user.key, "bluesky");
      const master = await createMaster(user.key, NOTE);
      const made = await content.variants(user.key, master.id, { client_request_id: "d", targets: [{ channel_id: channel, preset_id: "builtin-standard" }] });
      const { task_id: taskId, variant_id: variantId } = made.body.variants[0];
      const prisma = await db();
      await prisma.generationTask.update({ where: { id: taskId }, data: { state: "running", executionId: randomUUID(), heartbeatAt: new Date(Date.now() - 5 * 60_000) } });
      await generateVariantJob.run({ taskId }, ctx);
      assert.equal((await content.get(user.key, variantId)).body.item.generation.state, "succeeded");
    }),
  );
});

describe("a note read once for all its tasks", () => {
  test(
    "the note's tasks share one evaluated prefix: after the first, each task evaluates only its own instruction",
    withEnv(local(), async () => {
      // The tiny model's vocabulary is bytes: a token per byte, so the note is a few hundred tokens.
      const note = ["last week", "on Monday", "in May", "in June", "at night", "on Friday"].map((when) => NOTE.replace("last week", when)).join(" ");
      const noteTokens = Buffer.byteLength(note);
      const input = { title: "", body: note, preset: { tone: "neutral", length: "short", format: "single", hashtags: [], includeTitle: false }, terms: [], language: "en" };
      const other = await writeObject({ schema: z.object({ title: z.string() }), name: "t", system: "Another note's task.", prompt: "Something else entirely.", maxTokens: 8 });
      assert.ok(other.ok || other.kind === "malformed"); // the model holds another note
      const evaluated: { prompt: number; evaluated: number }[] = [];
      const measure = async (task: () => Promise<unknown>, calls = [1]) => {
        const before = localModelUsage();
        await task();
        const after = localModelUsage();
        assert.ok(calls.includes(after.generations - before.generations), `${after.generations - before.generations} calls`);
        evaluated.push({ prompt: after.promptTokens - before.promptTokens, evaluated: after.evaluatedTokens - before.evaluatedTokens });
      };
      // The insights: the title and summary, then (unless that answer was refused) the key points and to-dos.
      await measure(() => writerInsights().write({ text: note, language: "en" }).catch(() => undefined), [1, 2]);
      await measure(() => writePost({ ...input, platform: "x" }));
      await measure(() => writePost({ ...input, platform: "bluesky" }));
      const [first, ...rest] = evaluated;
      assert.ok(first.evaluated >= noteTokens, `the first task reads the note: ${JSON.stringify(evaluated)}`);
      for (const task of rest) {
        assert.ok(task.evaluated < noteTokens, `a later task does not read the note again: ${JSON.stringify(evaluated)}`);
        assert.ok(task.evaluated + noteTokens <= task.prompt + 16, `only its own instruction: ${JSON.stringify(evaluated)}`);
      }
    }),
  );

  test(
    "the JSON schema is the grammar's, not the prompt's: one line names the fields",
    withEnv(local(), async () => {
      const before = localModelUsage();
      const outcome = await writeObject({ schema: z.object({ title: z.string().describe("A short title.") }), name: "t", system: "Title it.", prompt: NOTE, maxTokens: 64 });
      assert.ok(outcome.ok || outcome.kind === "malformed");
      const prompt = localModelUsage().promptTokens - before.promptTokens;
      // System, note and the line `Answer in JSON: "title" (A short title).`, without the schema's JSON.
      assert.ok(prompt < Buffer.byteLength(`Title it.\n${NOTE}\nAnswer in JSON: "title" (A short title).`) + 8, String(prompt));
    }),
  );
});

describe("a model file that cannot be used", () => {
  for (const [kind, bytes] of [
    ["truncated (an interrupted copy)", () => MODEL.subarray(0, MODEL.length / 2)],
    ["not a model at all", () => Buffer.from("this is not a model\n".repeat(100))],
    ["a header declaring 2^62 tensors", () => Buffer.concat([MODEL.subarray(0, 8), Buffer.from(new BigUint64Array([2n ** 62n]).buffer), MODEL.subarray(16)])],
  ] as const) {
    test(`${kind}: the rules write, with a clear reason; no 5xx, and the server goes on`, async () => {
      const broken = path.join(dir, `broken-${randomUUID()}.gguf`);
      await writeFile(broken, bytes());
      await withEnv(local({ WRITER_LOCAL_MODEL: broken }), async () => {
        assert.equal(writerFor("posts"), "model", "before it is tried, the file is there");
        const user = await createTestUser();
        const channel = await createChannel(user.key, "mastodon");
        const master = await createMaster(user.key, NOTE);
        const made = await content.variants(user.key, master.id, { client_request_id: "c", targets: [{ channel_id: channel, preset_id: "builtin-standard" }] });
        assert.equal(made.status, 201, made.text);
        await generateVariantJob.run({ taskId: made.body.variants[0].task_id }, ctx);
        const variant = (await content.get(user.key, made.body.variants[0].variant_id)).body.item;
        assert.equal(variant.generation.state, "succeeded");
        assert.equal(variant.generation.written_by, "offline");
        assert.match(variant.generation.offline_reason, /the model on this machine cannot be used: broken-.*\.gguf (cannot be used as a model|could not be loaded as a model)/);
        assert.equal(writerFor("posts"), "rules", "once it failed to load, the rules write");
        const res = await call(health, { path: "/api/health" });
        assert.equal(res.status, 200);
        assert.equal(res.body.writing.written_by, "offline");
        assert.equal(res.body.writing.local_model.state, "unavailable");
        assert.match(res.body.writing.local_model.reason, /broken-/);
        assert.ok(!res.body.writing.local_model.reason.includes(dir), "no path in the reason");
      })();
    });
  }

  test("a hostile header (2^40 settings) is refused within a second, and health says the model file is damaged (issue 66)", async () => {
    const hostile = path.join(dir, `hostile-${randomUUID()}.gguf`);
    await writeFile(hostile, Buffer.concat([MODEL.subarray(0, 16), Buffer.from(new BigUint64Array([2n ** 40n]).buffer), MODEL.subarray(24)]));
    await withEnv(local({ WRITER_LOCAL_MODEL: hostile }), async () => {
      const started = performance.now();
      const outcome = await writeObject({ schema: z.object({ title: z.string().max(400) }), name: "t", system: "Title it.", prompt: NOTE });
      assert.equal(outcome.ok, false, "the rules write");
      assert.ok(performance.now() - started < 1000, `refused in ${Math.round(performance.now() - started)} ms`);
      const res = await call(health, { path: "/api/health" });
      assert.equal(res.body.writing.local_model.state, "unavailable");
      assert.match(res.body.writing.local_model.reason, /^hostile-.*\.gguf cannot be used as a model: the model file is damaged \(it declares more settings than it can hold\)$/);
    })();
  });

  test("a load that does not finish in WRITER_LOCAL_LOAD_TIMEOUT_SECONDS is given up: the rules write, and health says it could not be loaded", async () => {
    const slow = path.join(dir, `slow-${randomUUID()}.gguf`);
    await writeFile(slow, MODEL);
    await withEnv(local({ WRITER_LOCAL_MODEL: slow, WRITER_LOCAL_LOAD_TIMEOUT_SECONDS: "0.001" }), async () => {
      const outcome = await writeObject({ schema: z.object({ title: z.string().max(400) }), name: "t", system: "Title it.", prompt: NOTE });
      assert.equal(outcome.ok, false, "the rules write");
      assert.equal(localModelState().loaded, false, "what loaded late is not kept");
      const res = await call(health, { path: "/api/health" });
      assert.equal(res.body.writing.local_model.state, "unavailable");
      assert.match(res.body.writing.local_model.reason, /^slow-.*\.gguf could not be loaded: it did not finish loading within 0\.001 s$/);
    })();
  });
});
