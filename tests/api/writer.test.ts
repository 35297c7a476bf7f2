import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createTestUser } from "@/tests/support/factories.ts";
import type { ChatReply, ChatRequest } from "@/tests/support/chat-server.ts";
import { standInWriter } from "@/tests/support/stand-in-writer.ts";
import { loadCorpus } from "@/tests/support/writer-corpus.ts";
import { withEnv } from "@/tests/support/env.ts";
import { ordinaryWords } from "@/tests/support/ordinary-words.ts";
import { content, createChannel, createMaster, setUpContentTests } from "@/tests/api/content-support.ts";
import { generateVariantJob } from "@/lib/posts/generation/generation-job.ts";
import { postLength } from "@/lib/channels/platforms.ts";
import { upsertEntry } from "@/lib/dictionary/upsert-entry.ts";
import { writerStatus } from "@/lib/writer/writer.ts";
import { createTestNote } from "@/tests/support/factories.ts";
import { refreshInsights } from "@/lib/insights/refresh-insights.ts";
import { writeInsightsJob } from "@/lib/insights/writer-insights-job.ts";
import { refreshInsightsAfterCleanUp, writeNoteInsights } from "@/lib/insights/write-note-insights.ts";
import { editNote } from "@/lib/notes/edit-note.ts";
import { getNote } from "@/lib/notes/get-note.ts";
import { db } from "@/lib/db/client.ts";
import { GET as health } from "@/app/api/health/route.ts";
import { call } from "@/tests/support/http.ts";

// The writer (any OpenAI-compatible chat server) writing posts, against a stand-in server started
// here: what the prompt carries, the structured answer, and every way the server can fail, each
// ending in an offline post that says why.

setUpContentTests({ workers: false });
const ctx = { jobId: "test", attempt: 1, lastAttempt: true };

let reply: (req: ChatRequest, n: number) => ChatReply | Promise<ChatReply> = () => ({ content: "" });
const { chat, env: writerEnv } = await standInWriter((req, n) => reply(req, n));

const NOTE = "We moved our main database from MySQL to Postgres last week. The migration took four hours. Kubernetes made the rollout boring, which is the point.";
const post = (posts: string[], title = "") => ({ content: JSON.stringify({ title, posts }) });

async function writtenVariant(platform: string, preset = "builtin-standard", body = NOTE) {
  const user = await createTestUser();
  await upsertEntry({ userId: user.id, input: { misspelling: "cooper netties", correct_spelling: "Kubernetes" } });
  const channel = await createChannel(user.key, platform);
  const master = await createMaster(user.key, body);
  const made = await content.variants(user.key, master.id, { client_request_id: "w", targets: [{ channel_id: channel, preset_id: preset }] });
  assert.equal(made.status, 201, made.text);
  await generateVariantJob.run({ taskId: made.body.variants[0].task_id }, ctx);
  return (await content.get(user.key, made.body.variants[0].variant_id)).body.item;
}

const writer = writerEnv;

describe("posts by the writer", () => {
  test(
    "the prompt carries the platform's rules, the preset, the language and the dictionary's spellings; the answer is structured",
    withEnv(writer(), async () => {
      reply = () => post(["Postgres is our main database now. Four hours of migration, zero drama."]);
      const variant = await writtenVariant("bluesky");
      assert.equal(variant.generation.state, "succeeded", JSON.stringify(variant.generation));
      assert.equal(variant.generation.generator, "writer");
      assert.equal(variant.generation.written_by, "writer");
      assert.equal(variant.generation.offline_reason, null);
      assert.match(variant.body, /^Postgres is our main database now\. Four hours of migration, zero drama\./);
      assert.equal(variant.generation.model_on_its_way, null, "no model is on its way");
      assert.match(variant.body, /#Kubernetes/, "hashtags by the rules: the dictionary's name the note mentions");
      assert.ok(postLength("bluesky", variant.body) <= 300);

      assert.equal(chat.requests.length, 1);
      const [sent] = chat.requests;
      assert.equal(sent.authorization, "Bearer sk-writer");
      assert.equal(sent.model, "stand-in-7b");
      // The note first, then the task: what every task of the note shares, then this post's own instruction.
      assert.match(sent.system, /Write in English/);
      assert.match(sent.system, /exactly as spelled here: Kubernetes/);
      assert.doesNotMatch(sent.system, /Bluesky/);
      assert.equal(sent.user, NOTE);
      assert.match(sent.task, /Bluesky/);
      assert.match(sent.task, /at most 300 characters/);
      assert.match(sent.task, /most striking sentence/);
      // Read for every post, so only what this post needs: the preset's defaults go without saying (a
      // neutral tone), and an untitled platform is neither given the note's title nor asked for one.
      assert.doesNotMatch(sent.task, /Tone/);
      assert.doesNotMatch(sent.task, /title/i);
      assert.ok(sent.task.length < 150, `a post's own instruction is short (${sent.task.length} characters)`);
      // Structured output: the zod schema went out as a JSON schema, without a title for a platform that has none.
      assert.equal(sent.responseFormat?.type, "json_schema");
      assert.deepEqual(Object.keys((sent.responseFormat?.json_schema?.schema as { properties: object }).properties), ["posts"]);
    }),
  );

  test(
    "a German note is written in German; LinkedIn is asked for a closing line; a post over the limit is cut between sentences",
    withEnv(writer(), async () => {
      // Sentences told apart by letters: numbers the note does not have would drop the post (new-facts).
      // The note's own words (an answer mostly not of them is refused: lib/writer/check-output.ts).
      const long = Array.from({ length: 60 }, (_, i) => `Es war ${String.fromCharCode(65 + (i % 26))} ganz ruhig, wir sind auf Postgres umgezogen.`);
      reply = () => post([long.join(" ")]);
      const variant = await writtenVariant("x", "builtin-short", "Wir sind letzte Woche auf Postgres umgezogen. Es hat vier Stunden gedauert und es war ganz ruhig.");
      assert.match(chat.requests[0].system, /Write in German/);
      assert.equal(variant.generation.written_by, "writer");
      assert.ok(postLength("x", variant.body) <= 280, `${postLength("x", variant.body)}`);
      assert.match(variant.body, /^Es war A ganz ruhig, wir sind auf Postgres umgezogen\./);
      assert.match(variant.body, /umgezogen\.$/, "ends with a whole sentence");

      reply = () => post(["Hook line.", "One idea.", "What would you add?"]);
      await writtenVariant("linkedin");
      assert.match(chat.requests.at(-1)!.task, /a closing line inviting replies/);
    }),
  );

  test(
    "the post streams: while the writer writes, the variant carries the words so far",
    withEnv(writer(), async () => {
      const words = `${Array.from({ length: 60 }, (_, i) => ["we", "moved", "our", "main", "database"][i % 5]).join(" ")}.`;
      reply = () => ({ ...post([words]), chunkDelayMs: 15 });
      const user = await createTestUser();
      const channel = await createChannel(user.key, "linkedin");
      const master = await createMaster(user.key, NOTE);
      const made = await content.variants(user.key, master.id, { client_request_id: "s", targets: [{ channel_id: channel, preset_id: "builtin-standard" }] });
      const { task_id: taskId, variant_id: variantId } = made.body.variants[0];
      let finished = false;
      const job = generateVariantJob.run({ taskId }, ctx).finally(() => (finished = true));
      const seen: string[] = [];
      while (!finished) {
        const partial = (await content.get(user.key, variantId)).body.item.generation.partial_body;
        if (partial && partial !== seen.at(-1)) seen.push(partial);
        await new Promise((r) => setTimeout(r, 60));
      }
      await job;
      assert.ok(seen.length >= 2, `the words so far, seen ${seen.length} times`);
      for (const partial of seen) assert.ok(words.startsWith(partial.trimEnd()), `a beginning of the post: ${partial}`);
      assert.ok(seen.at(-1)!.length > seen[0].length, "growing");
      const done = (await content.get(user.key, variantId)).body.item;
      assert.equal(done.generation.state, "succeeded");
      assert.equal(done.generation.written_by, "writer", done.generation.offline_reason);
      assert.equal(done.generation.partial_body, null);
      assert.ok(chat.requests[0].stream, "asked to stream");
    }),
  );

  test(
    "a malformed answer is asked for again once, then the offline writer writes the post and says why",
    withEnv(writer(), async () => {
      reply = () => ({ content: "Sure! Here is your post: Postgres rocks" });
      const variant = await writtenVariant("linkedin");
      assert.equal(chat.requests.length, 2, "asked twice");
      assert.equal(variant.generation.state, "succeeded");
      assert.equal(variant.generation.written_by, "offline");
      assert.match(variant.generation.offline_reason, /^the writer's answer was not in the form asked for$/);
      assert.match(variant.body, /We moved our main database/);

      // A valid answer on the second ask is used.
      chat.requests.length = 0;
      reply = (_req, n) => (n % 2 === 1 ? { content: "{not json" } : post(["Second time lucky."]));
      const second = await writtenVariant("mastodon");
      assert.equal(second.generation.written_by, "writer");
      assert.match(second.body, /^Second time lucky\./);
    }),
  );

  test(
    "a busy server (503) is asked once more; still busy, the post is written offline",
    withEnv(writer(), async () => {
      reply = () => ({ status: 503 });
      const variant = await writtenVariant("x");
      assert.equal(chat.requests.length, 2);
      assert.equal(variant.generation.written_by, "offline");
      assert.match(variant.generation.offline_reason, /the writer was busy/);
      assert.ok(variant.body.length > 0);
    }),
  );

  test(
    "a wrong key: written offline at once, and the reason names the setting",
    withEnv(writer(), async () => {
      reply = () => ({ status: 401 });
      const variant = await writtenVariant("threads");
      assert.equal(chat.requests.length, 1, "a refused key is not asked again");
      assert.equal(variant.generation.written_by, "offline");
      assert.match(variant.generation.offline_reason, /^the writer refused its key; the administrator can check it$/);
    }),
  );

  test(
    "a slow server times out; then the breaker skips it, so the next posts cost no wait at all",
    withEnv(writer({ WRITER_TIMEOUT_SECONDS: "0.3", WRITER_COOLDOWN_SECONDS: "60" }), async () => {
      reply = () => ({ delayMs: 2000, ...post(["Too late."]) });
      const first = await writtenVariant("bluesky");
      assert.equal(first.generation.written_by, "offline");
      assert.match(first.generation.offline_reason, /^the writer did not answer in time$/);
      const asked = chat.requests.length;
      const second = await writtenVariant("newsletter", "builtin-article");
      assert.equal(chat.requests.length, asked, "not asked while the breaker is open");
      assert.equal(second.generation.written_by, "offline");
      assert.match(second.generation.offline_reason, /^the writer failed just before \(the writer did not answer in time\), so it is given a few minutes/);
      const status = writerStatus();
      assert.ok(status.configured && status.open && status.lastError?.includes("did not answer"));
    }),
  );

  test(
    "a server that is not there: one quick failure, written offline",
    withEnv(writer({ WRITER_BASE_URL: "http://127.0.0.1:9/v1" }), async () => {
      const variant = await writtenVariant("x");
      assert.equal(variant.generation.written_by, "offline");
      assert.match(variant.generation.offline_reason, /^the writer could not be reached$/);
    }),
  );

  test(
    "the older settings still name the writer (CONTENT_GENERATOR=openai with OPENAI_*)",
    withEnv({ CONTENT_GENERATOR: "openai", OPENAI_BASE_URL: chat.baseUrl, OPENAI_API_KEY: "sk-old", OPENAI_CHAT_MODEL: "old-chat" }, async () => {
      reply = () => post(["From the old settings."]);
      const variant = await writtenVariant("mastodon");
      assert.equal(variant.generation.written_by, "writer");
      assert.equal(chat.requests[0].authorization, "Bearer sk-old");
      assert.equal(chat.requests[0].model, "old-chat");
    }),
  );

  test(
    "a post that brings a name or a number the note does not have is dropped for the offline one, and says so",
    withEnv(writer(), async () => {
      reply = () => post(["Postgres is our main database now, and Oracle called it a 10x win for 300 customers."]);
      const variant = await writtenVariant("bluesky");
      assert.equal(variant.generation.state, "succeeded");
      assert.equal(variant.generation.written_by, "offline");
      assert.equal(variant.generation.offline_reason, "the writer's post said “10”, “300” and “Oracle”, which the note does not");
      assert.doesNotMatch(variant.body, /Oracle|300/);
      // The note's own names and numbers (as words or digits) are the note's: that post is used.
      reply = () => post(["MySQL to Postgres in 4 hours. Kubernetes made the rollout boring."]);
      assert.equal((await writtenVariant("bluesky")).generation.written_by, "writer");
    }),
  );

  test(
    "an answer of blank posts is dropped for the offline one, and says so",
    withEnv(writer(), async () => {
      reply = () => post(["", "  "]);
      const variant = await writtenVariant("bluesky");
      assert.equal(variant.generation.state, "succeeded");
      assert.equal(variant.generation.written_by, "offline");
      assert.equal(variant.generation.offline_reason, "the writer wrote an empty post");
      assert.ok(variant.body.trim());
    }),
  );

  // Issue 69: every model output passes one check (lib/writer/check-output.ts).
  test(
    "a post of nonsense, of bytes that are not text, or in another language is dropped for the offline one, and says why in words",
    withEnv(writer(), async () => {
      const cases: [string[], string][] = [
        [[ordinaryWords(240, 11)], "the writer's post was not in your note's words"],
        [["Postgres \u0000\u0001\ufffd\u0007 is our main database"], "the writer's post had characters that are not text"],
        [["Nous avons déplacé notre base de données principale vers Postgres la semaine dernière, et tout était calme."], "the writer wrote in another language than your note"],
      ];
      for (const [posts, reason] of cases) {
        reply = () => post(posts);
        const variant = await writtenVariant("bluesky");
        assert.equal(variant.generation.state, "succeeded");
        assert.equal(variant.generation.written_by, "offline", reason);
        assert.equal(variant.generation.offline_reason, reason);
        assert.match(variant.body, /We moved our main database/, "the note's own sentences");
      }
    }),
  );

  test("without a writer, the offline rules write the post (and there is no reason to give)", async () => {
    const variant = await writtenVariant("linkedin");
    assert.equal(chat.requests.length, 0);
    assert.equal(variant.generation.generator, "local");
    assert.equal(variant.generation.written_by, "offline");
    assert.equal(variant.generation.offline_reason, null);
  });
});

describe("insights by the writer", () => {
  const NOTE_TEXT = "Our cooper netties cluster moved to Postgres. I need to send the report to Maria by Friday. Remember to book the room for the retro.";
  const insightsOf = async (id: string) => ((await (await db()).note.findUniqueOrThrow({ where: { id } })).insights ?? null) as {
    title: string;
    summary: string;
    action_items: { text: string; done: boolean }[];
    written_by: string;
    offline_reason: string | null;
  } | null;

  async function noteWithOfflineInsights() {
    const user = await createTestUser();
    await upsertEntry({ userId: user.id, input: { misspelling: "cooper netties", correct_spelling: "Kubernetes" } });
    const note = await createTestNote(user, NOTE_TEXT.replace("cooper netties", "Kubernetes"));
    await refreshInsights({ userId: user.id, id: note.id });
    return { user, note };
  }

  test(
    "rewritten by the writer in the background, from a prompt with the language and the dictionary's spellings; ticks of unchanged items kept",
    withEnv(writer(), async () => {
      const { user, note } = await noteWithOfflineInsights();
      const offline = (await insightsOf(note.id))!;
      assert.equal(offline.written_by, "offline");
      const kept = offline.action_items[0];
      assert.ok(kept, "the offline writer found an action item");
      const prisma = await db();
      await prisma.note.update({ where: { id: note.id }, data: { insights: { ...offline, action_items: offline.action_items.map((a, i) => ({ ...a, done: i === 0 })) } } });

      reply = () => ({
        content: JSON.stringify({ title: "Kubernetes Moves to Postgres", summary: "The cluster moved; a report and a room are due.", key_points: ["The cluster moved to Postgres."], action_items: [kept.text, "Book the retro room"] }),
      });
      await writeInsightsJob.run({ userId: user.id, transcriptionId: note.id }, ctx);
      const written = (await insightsOf(note.id))!;
      assert.equal(written.written_by, "writer");
      assert.equal(written.offline_reason, null);
      assert.equal(written.title, "Kubernetes Moves to Postgres");
      assert.deepEqual(written.action_items, [
        { text: kept.text, done: true },
        { text: "Book the retro room", done: false },
      ]);
      const [sent] = chat.requests;
      assert.match(sent.system, /Write in English/);
      assert.match(sent.system, /exactly as spelled here: Kubernetes/);
      assert.equal(sent.user, NOTE_TEXT.replace("cooper netties", "Kubernetes"));
      assert.match(sent.task, /title.*summary.*key points.*to-dos/s);
      assert.deepEqual(Object.keys((sent.responseFormat?.json_schema?.schema as { properties: object }).properties), ["title", "summary", "key_points", "action_items"]);
    }),
  );

  test(
    "insights that bring a name the note does not have are not used: the offline ones stay, with the reason",
    withEnv(writer(), async () => {
      const { user, note } = await noteWithOfflineInsights();
      reply = () => ({
        content: JSON.stringify({ title: "Cluster moved", summary: "The cluster moved to Postgres, says Jeff.", key_points: [], action_items: ["Send the report to Maria"] }),
      });
      await writeInsightsJob.run({ userId: user.id, transcriptionId: note.id }, ctx);
      const written = (await insightsOf(note.id))!;
      assert.equal(written.written_by, "offline");
      assert.equal(written.offline_reason, "the writer's insights said “Jeff”, which the note does not");
      assert.doesNotMatch(written.summary, /Jeff/);
    }),
  );

  test(
    "insights with a title or a to-do of nonsense are not used: the offline ones stay, with the reason (issue 69)",
    withEnv(writer(), async () => {
      const { user, note } = await noteWithOfflineInsights();
      const good = { title: "Cluster moved", summary: "The cluster moved to Postgres.", key_points: ["The cluster moved to Postgres."], action_items: ["Send the report to Maria"] };
      const cases: [object, string][] = [
        [{ ...good, title: ordinaryWords(40, 2) }, "the writer's title was not in your note's words"],
        [{ ...good, action_items: ["Send the report to Maria", ordinaryWords(60, 5)] }, "the writer's to-do was not in your note's words"],
      ];
      for (const [answer, reason] of cases) {
        reply = () => ({ content: JSON.stringify(answer) });
        await writeInsightsJob.run({ userId: user.id, transcriptionId: note.id }, ctx);
        const written = (await insightsOf(note.id))!;
        assert.equal(written.written_by, "offline");
        assert.equal(written.offline_reason, reason);
        assert.ok(written.action_items.every((item) => /maria|room|report/i.test(item.text)), JSON.stringify(written.action_items));
      }
    }),
  );

  // Issue 57 item 1: the open note follows its insights while they are on their way, and offline
  // ones never take the place of the writer's for the same text.
  test(
    "insights_pending until the writer's insights land; an offline rewrite of the same text leaves them; a new text keeps them, pending, until the writer's of it land",
    withEnv(writer(), async () => {
      const user = await createTestUser();
      const note = await createTestNote(user, NOTE_TEXT);
      await writeNoteInsights({ userId: user.id, id: note.id });
      let shown = await getNote({ userId: user.id, id: note.id });
      assert.equal(shown.insights?.written_by, "offline");
      assert.equal(shown.insights_pending, true, "the writer's insights are queued");
      assert.equal(Object.hasOwn(shown.insights!, "basis"), false, "the marks are not shown");

      reply = () => ({ content: JSON.stringify({ title: "Cluster Moved To Postgres", summary: "The cluster moved.", key_points: [], action_items: ["Send the report to Maria"] }) });
      await writeInsightsJob.run({ userId: user.id, transcriptionId: note.id }, ctx);
      shown = await getNote({ userId: user.id, id: note.id });
      assert.equal(shown.insights?.written_by, "writer", shown.insights?.offline_reason ?? "");
      assert.equal(shown.insights_pending, false);

      // The same text again (a clean-up that changed nothing, a retry): the writer's stay, nothing queued.
      const asked = chat.requests.length;
      await writeNoteInsights({ userId: user.id, id: note.id });
      await refreshInsights({ userId: user.id, id: note.id });
      shown = await getNote({ userId: user.id, id: note.id });
      assert.equal(shown.insights?.title, "Cluster Moved To Postgres");
      assert.equal(shown.insights_pending, false);
      assert.equal(chat.requests.length, asked);

      // A new text: the writer's insights of the text before stay, pending, until the writer's of
      // this one come (issue 69 item 6: offline ones in between changed the title twice in seconds).
      const edited = await editNote({ userId: user.id, id: note.id, input: { text: "We chose SQLite after all. I need to tell Maria on Monday." } });
      assert.equal(edited.insights?.title, "Cluster Moved To Postgres");
      assert.equal(edited.insights_pending, true);
      reply = () => ({ content: JSON.stringify({ title: "Chose SQLite", summary: "We chose SQLite after all.", key_points: [], action_items: ["Tell Maria on Monday"] }) });
      await writeInsightsJob.run({ userId: user.id, transcriptionId: note.id }, ctx);
      shown = await getNote({ userId: user.id, id: note.id });
      assert.equal(shown.insights?.title, "Chose SQLite");
      assert.deepEqual(shown.insights?.action_items.map((item) => item.text), ["Tell Maria on Monday"], "no to-do of the text before stays");
      assert.equal(shown.insights_pending, false);
    }),
  );

  test(
    "a text that changed under its insights (the clean-up landed, the second pass) is pending until they are rewritten",
    async () => {
      const user = await createTestUser();
      const note = await createTestNote(user, NOTE_TEXT);
      await writeNoteInsights({ userId: user.id, id: note.id });
      assert.equal((await getNote({ userId: user.id, id: note.id })).insights_pending, false, "no writer: nothing follows");
      const prisma = await db();
      await prisma.note.update({ where: { id: note.id }, data: { text: "Heard again: the prickly cluster moved to Postgres." } });
      assert.equal((await getNote({ userId: user.id, id: note.id })).insights_pending, true);
      await writeNoteInsights({ userId: user.id, id: note.id });
      const shown = await getNote({ userId: user.id, id: note.id });
      assert.equal(shown.insights_pending, false);
      assert.match(shown.insights!.summary, /prickly/);
      await refreshInsightsAfterCleanUp("no-such-workflow");
    },
  );

  test(
    "a writer that fails leaves offline insights, marked with the reason",
    withEnv(writer(), async () => {
      const { user, note } = await noteWithOfflineInsights();
      reply = () => ({ status: 401 });
      await writeInsightsJob.run({ userId: user.id, transcriptionId: note.id }, ctx);
      const written = (await insightsOf(note.id))!;
      assert.equal(written.written_by, "offline");
      assert.match(written.offline_reason!, /refused its key/);
      assert.ok(written.title && written.summary);
    }),
  );
});

// Issue 56: posts fit each platform to the character as it counts them. X: twitter-text's weighted
// length (a link 23, an emoji or a CJK character 2); Bluesky: graphemes.
const COUNTED_NOTES = [
  `Read the write-up at https://example.com/engineering/2026/12/01/why-our-postgres-migration-took-eleven-weeks-and-what-we-would-do-differently-next-time?utm_source=voicedraft 🚀🚀 It covers the shadow reads, the rehearsals and the long night. ${"We would do it again, and we would rehearse twice as often before the switch. ".repeat(3)}`,
  `${"🎉👩🏽‍💻🔥 ".repeat(60)}The launch went well and the team celebrated with cake.`,
  `Café crème à Genève, déjà vu à Zürich: über die Brücke, naïve Pläne für das Frühjahr. ${"Ça marche très bien, et l'équipe est ravie du résultat final. ".repeat(6)}`,
  `東京のチームと会議をしました。${"新しいデザインはとても良いと思います。".repeat(20)} See 日本語 notes.`,
];

describe("posts that fit the platform to the character", () => {
  for (const [i, body] of COUNTED_NOTES.entries()) {
    test(`note ${i + 1}: offline, every X post ≤ 280 weighted and every Bluesky post ≤ 300 graphemes`, async () => {
      for (const [platform, limit] of [["x", 280], ["bluesky", 300]] as const) {
        for (const preset of ["builtin-thread", "builtin-short", "builtin-standard"]) {
          const variant = await writtenVariant(platform, preset, body);
          assert.equal(variant.generation.state, "succeeded");
          for (const text of variant.posts) assert.ok(postLength(platform, text) <= limit, `${platform} ${preset}: ${postLength(platform, text)} > ${limit}: ${text}`);
        }
      }
    });
    test(
      `note ${i + 1}: the stand-in writer's posts, as long as it likes, fitted to ≤ 280 weighted and ≤ 300 graphemes`,
      withEnv(writer(), async () => {
        reply = (req) => post([req.user]);
        for (const [platform, limit] of [["x", 280], ["bluesky", 300]] as const) {
          for (const preset of ["builtin-thread", "builtin-short"]) {
            const variant = await writtenVariant(platform, preset, body);
            for (const text of variant.posts) assert.ok(postLength(platform, text) <= limit, `${platform} ${preset} (${variant.generation.written_by}): ${postLength(platform, text)} > ${limit}: ${text}`);
          }
        }
      }),
    );
  }
  test(
    "the 20-note corpus with the stand-in writer: every X post ≤ 280 weighted, every Bluesky post ≤ 300 graphemes",
    withEnv(writer(), async () => {
      // The stand-in answers with the whole note as one post: the rules must fit it.
      reply = (req) => post([req.user]);
      for (const note of loadCorpus()) {
        for (const [platform, limit] of [["x", 280], ["bluesky", 300]] as const) {
          const variant = await writtenVariant(platform, platform === "x" ? "builtin-thread" : "builtin-short", note.text);
          for (const text of variant.posts) assert.ok(postLength(platform, text) <= limit, `${note.id} ${platform}: ${postLength(platform, text)} > ${limit}`);
        }
      }
    }),
  );
  test("X counts a link as 23 and an emoji as 2; Bluesky counts graphemes", () => {
    assert.equal(postLength("x", "see https://example.com/a/very/long/path/that/goes/on/and/on"), 27);
    assert.equal(postLength("x", "🚀"), 2);
    assert.equal(postLength("bluesky", "👩🏽‍💻"), 1);
    assert.equal(postLength("mastodon", "https://a.co"), 23);
    assert.equal(postLength("linkedin", "🚀"), 1);
  });
});

// Issue 69 item 2: the writer's state is what its last tasks did, in health and in Settings → Writing alike.
describe("what the writer's last tasks did", () => {
  const writing = async () => {
    const res = await call(health, { path: "/api/health" });
    assert.equal(res.status, 200, res.text);
    const settings = writerStatus().writing;
    assert.deepEqual(settings, res.body.writing, "Settings → Writing reads the same");
    return res.body.writing as { written_by: string; says: string; last_tasks: { state: string; notes: number; reason: string | null; at: string | null } };
  };

  test(
    "a writer that answers nonsense to every task: health and Settings say it could not write them, and why; a good answer after says it wrote",
    withEnv(writer(), async () => {
      assert.equal((await writing()).says, "has written nothing yet since the server started");

      reply = (req) =>
        req.responseFormat?.json_schema?.name === "insights"
          ? { content: JSON.stringify({ title: ordinaryWords(30, 1), summary: ordinaryWords(120, 2), key_points: [], action_items: [] }) }
          : post([ordinaryWords(200, 3)]);
      const user = await createTestUser();
      for (const text of [NOTE, "Our search index moves to Postgres next week. Kubernetes runs it."]) {
        const note = await createTestNote(user, text);
        await writeInsightsJob.run({ userId: user.id, transcriptionId: note.id }, ctx);
      }
      await writtenVariant("bluesky");
      const failed = await writing();
      assert.equal(failed.written_by, "writer", "the writer is still the one asked");
      assert.equal(failed.last_tasks.state, "failed");
      assert.equal(failed.last_tasks.notes, 3);
      assert.equal(failed.last_tasks.reason, "the writer's post was not in your note's words");
      assert.equal(failed.says, "could not write your last 3 notes: the writer's post was not in your note's words; writing without a model meanwhile");
      assert.match(failed.last_tasks.at!, /^\d{4}-\d\d-\d\dT/);

      reply = () => post(["Postgres is our main database now. Four hours of migration, zero drama."]);
      await writtenVariant("bluesky");
      const wrote = await writing();
      assert.equal(wrote.last_tasks.state, "wrote");
      assert.equal(wrote.says, "wrote your last note");
    }),
  );

  test("without a writer, nothing is claimed: written offline, and why", async () => {
    const state = await writing();
    assert.equal(state.written_by, "offline");
    assert.equal(state.last_tasks.state, "none");
    assert.match(state.says, /^writing without a model: no writer is set up, and the model on this machine is turned off$/);
  });
});
