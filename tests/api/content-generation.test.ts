import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { createTestUser } from "@/tests/support/factories.ts";
import { call } from "@/tests/support/http.ts";
import { content, createChannel, createMaster, LONG_NOTE, setUpContentTests } from "@/tests/api/content-support.ts";
import { db } from "@/lib/db/client.ts";
import { serviceSecret } from "@/lib/internal/service-secret.ts";
import { generateVariantJob, recoverGenerationTasks } from "@/lib/posts/generation/generation-job.ts";
import { upsertEntry } from "@/lib/dictionary/upsert-entry.ts";
import { signBody } from "@/lib/internal/signed-body.ts";
import { POST as callback } from "@/app/api/internal/generation/callback/route.ts";

// No workers: each test runs the generation job itself, so it can act between "task started"
// and "result arrives".
setUpContentTests({ workers: false });

const ctx = { jobId: "test", attempt: 1, lastAttempt: true };

async function queuedVariant(platform = "linkedin", preset = "builtin-standard", body = LONG_NOTE) {
  const user = await createTestUser();
  const channel = await createChannel(user.key, platform);
  const master = await createMaster(user.key, body);
  const made = await content.variants(user.key, master.id, { client_request_id: "gen", targets: [{ channel_id: channel, preset_id: preset }] });
  assert.equal(made.status, 201, made.text);
  const { variant_id: variantId, task_id: taskId } = made.body.variants[0];
  return { ...user, master, variantId, taskId };
}

const variantOf = async (key: string, id: string) => (await content.get(key, id)).body.item;

function sign(body: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
  const signature = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return { "x-voicedraft-timestamp": String(timestamp), "x-voicedraft-signature": `v1=${signature}` };
}
const postCallback = (body: string, headers: Record<string, string>) =>
  call(callback, { method: "POST", path: "/api/internal/generation/callback", body, headers: { "content-type": "application/json", ...headers } });

describe("the generation job", () => {
  test("applies the result with the apply-result use case", async () => {
    const { key, variantId, taskId } = await queuedVariant();
    assert.equal((await variantOf(key, variantId)).generation.state, "queued");
    const prisma = await db();
    const signaturesBefore = await prisma.generationCallbackSignature.count();
    await generateVariantJob.run({ taskId }, ctx);
    const variant = await variantOf(key, variantId);
    assert.equal(variant.generation.state, "succeeded");
    // Applied in process, not through its own signed callback.
    assert.equal(await prisma.generationCallbackSignature.count(), signaturesBefore);
    assert.ok(variant.body.startsWith("We moved our main database"));
    assert.equal(variant.version, 2);
    // Running it again (a duplicate delivery by the queue) changes nothing.
    await generateVariantJob.run({ taskId }, ctx);
    assert.equal((await variantOf(key, variantId)).version, 2);
  });

  test("the user's dictionary terms that the note mentions become hashtags", async () => {
    const { id: userId, key, variantId, taskId } = await queuedVariant("instagram", "builtin-caption");
    await upsertEntry({ userId, input: { misspelling: "my sequel", correct_spelling: "MySQL" } });
    await upsertEntry({ userId, input: { misspelling: "cooper netties", correct_spelling: "Kubernetes" } });
    await generateVariantJob.run({ taskId }, ctx);
    const { body } = await variantOf(key, variantId);
    assert.match(body, /#MySQL\b/);
    assert.doesNotMatch(body, /#Kubernetes/, "a term the note does not mention is no tag");
  });

  test("a result never overwrites an edit made after the task started: it is set aside", async () => {
    const { key, variantId } = await queuedVariant("threads", "builtin-thread");
    const firstTask = (await content.get(key, variantId)).body.item.generation.task_id;
    await generateVariantJob.run({ taskId: firstTask }, ctx);
    const generated = await variantOf(key, variantId);
    const regen = await content.regenerate(key, variantId, { expected_content_hash: generated.content_hash });
    assert.equal(regen.status, 202);
    // The user edits while the regeneration is in flight.
    const mine = await content.edit(key, variantId, { expected_content_hash: generated.content_hash, body: "My own words." });
    assert.equal(mine.status, 200);
    await generateVariantJob.run({ taskId: regen.body.task_id }, ctx);
    const after = await variantOf(key, variantId);
    assert.equal(after.body, "My own words.");
    assert.equal(after.generation.state, "conflicted");
    assert.equal(after.generation.set_aside.body, generated.body);
    // A stale expected_content_hash on regenerate is refused.
    const stale = await content.regenerate(key, variantId, { expected_content_hash: generated.content_hash });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.error.code, "edit_conflict");
  });

  test("a newer task supersedes an older one; approval is refused while generating", async () => {
    const { key, variantId, taskId } = await queuedVariant();
    const approve = await content.approve(key, variantId, { content_hash: (await variantOf(key, variantId)).content_hash });
    assert.equal(approve.status, 409);
    assert.equal(approve.body.error.code, "generation_in_progress");
    const regen = await content.regenerate(key, variantId);
    await generateVariantJob.run({ taskId }, ctx); // the old task: nothing to do any more
    const prisma = await db();
    assert.equal((await prisma.generationTask.findUniqueOrThrow({ where: { id: taskId } })).state, "superseded");
    assert.equal((await variantOf(key, variantId)).version, 1);
    await generateVariantJob.run({ taskId: regen.body.task_id }, ctx);
    assert.equal((await variantOf(key, variantId)).generation.state, "succeeded");
  });
});

describe("recovering left-behind tasks", () => {
  test("a task never queued is queued; one that never finished is failed, so the variant can be regenerated", async () => {
    const { key, variantId, taskId } = await queuedVariant();
    const prisma = await db();
    // As if the process died between the commit and the enqueue.
    await prisma.generationTask.update({ where: { id: taskId }, data: { jobId: null } });
    const soon = await recoverGenerationTasks(new Date(Date.now() + 10_000));
    assert.equal((await prisma.generationTask.findUniqueOrThrow({ where: { id: taskId } })).jobId, null, "within the grace period");
    assert.equal(soon.queued, 0);
    const later = await recoverGenerationTasks(new Date(Date.now() + 60_000));
    assert.ok(later.queued >= 1);
    assert.ok((await prisma.generationTask.findUniqueOrThrow({ where: { id: taskId } })).jobId);
    // Half an hour on, still unfinished (no worker ever ran it): failed, with the reason.
    await recoverGenerationTasks(new Date(Date.now() + 31 * 60_000));
    const variant = await variantOf(key, variantId);
    assert.equal(variant.generation.state, "failed");
    assert.match(variant.generation.error, /did not finish in time/);
    assert.equal((await content.regenerate(key, variantId)).status, 202);
  });
});

describe("the generation callback", () => {
  test("accepts a correctly signed result once; wrong, missing, old and replayed signatures are 401", async () => {
    const { key, variantId, taskId } = await queuedVariant();
    const secret = await serviceSecret();
    const body = JSON.stringify({ task_id: taskId, status: "succeeded", title: "From outside", body: "An external generator wrote this." });

    const refusals: Record<string, Record<string, string>> = {
      missing: {},
      "missing timestamp": { "x-voicedraft-signature": sign(body, secret)["x-voicedraft-signature"] },
      "wrong secret": sign(body, "not-the-service-secret-not-the-service-secret"),
      "signature of another body": sign(body.replace("wrote", "typed"), secret),
      "too old": sign(body, secret, Math.floor(Date.now() / 1000) - 301),
      // Made before the requests are sent: a margin so that a slow machine does not bring it within the 300 s window.
      "from the future": sign(body, secret, Math.floor(Date.now() / 1000) + 360),
      malformed: { "x-voicedraft-timestamp": String(Math.floor(Date.now() / 1000)), "x-voicedraft-signature": "sha256=abc" },
    };
    for (const [what, headers] of Object.entries(refusals)) {
      const res = await postCallback(body, headers);
      assert.equal(res.status, 401, what);
      assert.equal(res.body.error.code, "unauthorized", what);
    }
    assert.equal((await variantOf(key, variantId)).generation.state, "queued");

    const headers = sign(body, secret);
    const accepted = await postCallback(body, headers);
    assert.equal(accepted.status, 200, accepted.text);
    assert.deepEqual(accepted.body, { task_id: taskId, state: "succeeded" });
    const variant = await variantOf(key, variantId);
    assert.equal(variant.title, "From outside");
    assert.equal(variant.body, "An external generator wrote this.");

    const replayed = await postCallback(body, headers);
    assert.equal(replayed.status, 401);
    assert.match(replayed.body.error.message, /already received/);
  });

  test("a signed but invalid body is 400, an unknown task 404", async () => {
    const secret = await serviceSecret();
    const bad = JSON.stringify({ task_id: "t", status: "maybe" });
    assert.equal((await postCallback(bad, sign(bad, secret))).body.error.code, "validation_failed");
    const unknown = JSON.stringify({ task_id: "no-such-task", status: "failed" });
    assert.equal((await postCallback(unknown, sign(unknown, secret))).status, 404);
    const huge = JSON.stringify({ task_id: "t", status: "failed", error: "x".repeat(300 * 1024) });
    assert.equal((await postCallback(huge, sign(huge, secret))).body.error.code, "payload_too_large");
    const notJson = "{";
    assert.equal((await postCallback(notJson, await signBody(notJson))).body.error.code, "invalid_json");
  });

  test("a failed result keeps the variant's content and shows the error", async () => {
    const { key, variantId, taskId } = await queuedVariant();
    const body = JSON.stringify({ task_id: taskId, status: "failed", error: "model overloaded" });
    const res = await postCallback(body, await signBody(body));
    assert.equal(res.body.state, "failed");
    const variant = await variantOf(key, variantId);
    assert.equal(variant.generation.state, "failed");
    assert.equal(variant.generation.error, "model overloaded");
    assert.equal(variant.body, "");
  });
});
