import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { POST as transcribe } from "@/app/transcribe/route.ts";
import { POST as createWebhook } from "@/app/api/v1/webhooks/route.ts";
import { DELETE as deleteTranscription } from "@/app/api/v1/transcriptions/[id]/route.ts";
import { db } from "@/lib/db/client.ts";
import { resetEnvCache } from "@/lib/env.ts";
import { generateVariantJob } from "@/lib/posts/generation/generation-job.ts";
import { startJobWorkers, type JobWorkers } from "@/lib/jobs/workers.ts";
import { webhookEventJob } from "@/lib/background-work.ts";
import { webhookDeliveryJob } from "@/lib/webhooks/deliveries/delivery-job.ts";
import { emitWebhookEvent } from "@/lib/webhooks/emit-event.ts";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/schemas.ts";
import { content, createChannel, createMaster, waitForGeneration } from "./content-support.ts";
import { jfkOpening, silence } from "../support/audio.ts";
import { setUpTestDatabase } from "../support/database.ts";
import { createTestNote, createTestUser } from "../support/factories.ts";
import { call } from "../support/http.ts";
import { startReceiver, until, verify, type Received } from "../support/webhook-receiver.ts";

// Issue 44 item 5: every documented event (docs/api-guide.md#webhooks) reaches an endpoint that
// listens to it, from where it happens (the routes and the jobs, as the app runs them), signed
// and verified by the Standard Webhooks reference library, on both databases.
// content.variants.generated was never sent: its event was refused when queued.

process.env.JOBS_POLL_SECONDS = "0.5";
process.env.TRANSCRIBE_ENGINE = "pocketsphinx";
process.env.OPTIMIZER = "local";
process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
const database = setUpTestDatabase();
const receiver = await startReceiver();

let workers: JobWorkers;
before(async () => {
  await database.ready;
  resetEnvCache();
  workers = await startJobWorkers([webhookEventJob, webhookDeliveryJob, generateVariantJob], []);
});
after(async () => {
  await workers?.stop();
  await receiver.close();
});

type Event = { type: string; timestamp: string; data: Record<string, any> };

const upload = (key: string, audio: Buffer, name: string) => {
  const body = new FormData();
  body.set("audio", new Blob([new Uint8Array(audio)]), name);
  return call(transcribe, { method: "POST", path: "/transcribe", key, body });
};

describe("every documented event reaches a listening endpoint", () => {
  // A missing event fails the test at its timeout instead of holding the suite.
  test("all seven, signed; each with the data the guide lists", { timeout: 180_000 }, async () => {
    const user = await createTestUser();
    const hook = await call(createWebhook, { method: "POST", path: "/api/v1/webhooks", key: user.key, json: { url: receiver.url("/all"), events: [...WEBHOOK_EVENT_TYPES] } });
    assert.equal(hook.status, 201, hook.text);
    const secret: string = hook.body.secret;
    const events = new Map<string, Event>();
    /** The event of `type` once it arrived, verified (each type is sent once here). */
    const arrived = async (type: string): Promise<Event> => {
      await until(async () => receiver.at("/all"), (all: Received[]) => all.some((r) => JSON.parse(r.body).type === type));
      for (const r of receiver.at("/all")) events.set(JSON.parse(r.body).type, verify(secret, r) as Event);
      return events.get(type)!;
    };

    // A recording (the first 3 s of jfk.wav) becomes a note, and its clean-up (local rules, in the request) completes.
    const note = await upload(user.key, await jfkOpening(), "opening.wav");
    assert.equal(note.status, 200, note.text);
    const completed = await arrived("transcription.completed");
    assert.equal(completed.data.transcription_id, note.body.id);
    assert.equal(completed.data.transcription.text, note.body.text);
    const optimized = await arrived("optimization.completed");
    assert.equal(optimized.data.transcription_id, note.body.id);
    assert.equal(optimized.data.optimization_id, note.body.optimizer_processing.optimizer_workflow_id);
    assert.equal(optimized.data.optimization.status, "completed");
    assert.equal(optimized.data.transcription.id, note.body.id);

    // A recording with no speech in it is accepted, then fails.
    const silent = await upload(user.key, await silence(3), "silence.wav");
    assert.equal(silent.status, 422, silent.text);
    const failed = await arrived("transcription.failed");
    assert.deepEqual(failed.data, { recording_id: null, error: { code: "no_speech" } });

    // A post of the note: a platform variant written by the generation job, approved, shared.
    const channel = await createChannel(user.key, "mastodon");
    const master = await createMaster(user.key, "Ask not what your country can do for you.");
    const made = await content.variants(user.key, master.id, { client_request_id: "all-events", targets: [{ channel_id: channel, preset_id: "builtin-standard" }] });
    assert.equal(made.status, 201, made.text);
    const variantId: string = made.body.variants[0].variant_id;
    await waitForGeneration(user.key, master.id);
    const generated = await arrived("content.variants.generated");
    assert.deepEqual([generated.data.variant_id, generated.data.master_id, generated.data.variant.id], [variantId, master.id, variantId]);
    assert.ok(generated.data.variant.body.length > 0);

    const hash = (await content.get(user.key, variantId)).body.item.content_hash;
    assert.equal((await content.approve(user.key, variantId, { content_hash: hash })).status, 200);
    const approved = await arrived("content.variant.approved");
    assert.deepEqual([approved.data.variant_id, approved.data.master_id, approved.data.variant.approval.state], [variantId, master.id, "approved"]);

    const shared = await content.deliver(user.key, variantId, { client_event_id: "all-events", method: "share", state: "initiated" });
    assert.equal(shared.status, 201, shared.text);
    const recorded = await arrived("content.delivery.recorded");
    assert.deepEqual([recorded.data.delivery_id, recorded.data.item_id, recorded.data.delivery.state], [shared.body.delivery.id, variantId, "initiated"]);

    // The note is deleted.
    const removed = await call(deleteTranscription, { method: "DELETE", path: `/api/v1/transcriptions/${note.body.id}`, params: { id: note.body.id }, key: user.key });
    assert.equal(removed.status, 204, removed.text);
    const deleted = await arrived("note.deleted");
    assert.deepEqual(deleted.data, { transcription_id: note.body.id });

    assert.deepEqual([...events.keys()].sort(), [...WEBHOOK_EVENT_TYPES].sort(), "every documented type arrived");
    for (const event of events.values()) assert.ok(!Number.isNaN(Date.parse(event.timestamp)), event.type);
    const ids = receiver.at("/all").map((r) => String(r.headers["webhook-id"]));
    assert.equal(new Set(ids).size, ids.length, "each event once, with its own webhook-id");
  });
});

describe("optimization.completed of a short recording", () => {
  // Its clean-up completes inside the upload, before the upload saves the note that shows it: the
  // event job must not take the missing note for a deleted one (the event was then never sent).
  test("waits for the note its upload saves", { timeout: 180_000 }, async () => {
    const user = await createTestUser();
    const hook = await call(createWebhook, { method: "POST", path: "/api/v1/webhooks", key: user.key, json: { url: receiver.url("/early"), events: ["optimization.completed"] } });
    assert.equal(hook.status, 201, hook.text);
    const prisma = await db();
    const shown = await createTestNote(user, "so um the garden thing", "The garden needs new fences.");
    const workflowId = shown.optimizationId!;
    await prisma.note.update({ where: { id: shown.id }, data: { optimizationId: null } }); // not saved yet
    await emitWebhookEvent({ userId: user.id, type: "optimization.completed", subjectId: workflowId });
    // The event job ran once: it is to try again, not done with nothing sent.
    const job = await until(
      async () => (await prisma.$queryRaw<{ state: string }[]>`SELECT state::text FROM pgboss.job WHERE name = 'webhook-event' AND data->>'subjectId' = ${workflowId}`)[0],
      (found) => ["retry", "completed", "failed"].includes(found?.state ?? ""),
    );
    assert.equal(job.state, "retry", "the event job took the note not saved yet for a deleted one");
    assert.equal(receiver.at("/early").length, 0);
    await prisma.note.update({ where: { id: shown.id }, data: { optimizationId: workflowId } }); // the upload saved it

    const [sent] = await until(async () => receiver.at("/early"), (r) => r.length >= 1);
    const event = verify(hook.body.secret, sent);
    assert.deepEqual([event.type, event.data.optimization_id, event.data.transcription_id], ["optimization.completed", workflowId, shown.id]);
    assert.equal(event.data.optimization.text, "The garden needs new fences.");
  });
});
