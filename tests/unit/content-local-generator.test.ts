import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateLocally } from "@/lib/posts/generators/local.ts";
import { fitPost } from "@/lib/posts/generators/writer.ts";
import { splitPosts } from "@/lib/posts/generators/platform-rules.ts";
import { rankUnits, unitsOf } from "@/lib/writer/sentences.ts";
import type { GeneratorPreset } from "@/lib/posts/generators/types.ts";
import { PLATFORMS, type Platform } from "@/lib/channels/schemas.ts";
import { PLATFORM_RULES, postLength } from "@/lib/channels/platforms.ts";
import { titleOf } from "@/lib/writer/note-title.ts";

const preset = (overrides: Partial<GeneratorPreset> = {}): GeneratorPreset => ({
  tone: "neutral",
  length: "full",
  format: "single",
  hashtags: [],
  includeTitle: false,
  ...overrides,
});
const sentence = (n: number) => `Sentence number ${n} says something about databases and migrations.`;
const paragraph = (from: number, count: number) => Array.from({ length: count }, (_, i) => sentence(from + i)).join(" ");
const NOTE = [paragraph(1, 4), paragraph(5, 4), paragraph(9, 4), paragraph(13, 80)].join("\n\n");

const TEXTS: Record<string, string> = {
  short: "We shipped the new editor today. It saves as you type.",
  long: NOTE,
  list: [
    "We moved our whole platform to Kubernetes last quarter. It took three months and a lot of coffee.",
    "What I would do differently:\n- Start with observability before the migration.\n- Move stateless services first.\n- Budget twice the time for networking.",
    "The biggest win was deployment speed. Deploys went from forty minutes to four minutes. Rollbacks are now a single command.",
    "If you are planning a Kubernetes migration, start small and measure everything. Happy to share our checklist with anyone who asks.",
  ].join("\n\n"),
  paragraphs: Array.from(
    { length: 12 },
    (_, p) => `Paragraph ${p + 1} opens with a point about release planning. It adds a detail about team number ${p + 1}. It closes with what we learned from sprint ${p + 1}!`,
  ).join("\n\n"),
  german: [
    "Wir haben unsere Plattform im letzten Quartal auf Kubernetes umgestellt. Das hat drei Monate gedauert und viel Kaffee gekostet.",
    "Der größte Gewinn war die Geschwindigkeit der Auslieferung. Ein Deployment dauert jetzt vier statt vierzig Minuten. Ein Rollback ist ein einziger Befehl, z. B. über das Dashboard.",
    "Am schwierigsten waren die Datenbanken. Sie sind bei einem verwalteten Postgres geblieben, was uns Wochen gespart hat. Die Warteschlangen kamen zuletzt.",
    "Wer eine Migration plant, sollte klein anfangen und alles messen. Unsere Checkliste teilen wir gern mit allen, die fragen.",
  ].join("\n\n"),
  spanish: [
    "El trimestre pasado migramos toda la plataforma a Kubernetes. Nos llevó tres meses y mucho café.",
    "¿Qué ganamos? Sobre todo velocidad: un despliegue tarda ahora cuatro minutos en lugar de cuarenta. Volver atrás es un solo comando.",
    "Lo más difícil fueron las bases de datos. Se quedaron en un Postgres gestionado, lo que nos ahorró semanas. Las colas se movieron al final.",
    "Si planeas una migración, empieza poco a poco y mídelo todo. Compartimos nuestra lista con quien la pida.",
  ].join("\n\n"),
};

const NUMBERING = /\n\n\d+\/\d+$/;
const TAGS = /\n\n(#\S+ ?)+$/u;
/** What a post says without its numbering and hashtag line. */
const text = (post: string) => post.replace(NUMBERING, "").replace(TAGS, "").trim();
const endsAtSentence = (s: string) => /[.!?:"»”)]$/u.test(s);

const defaults = (platform: Platform) => preset(PLATFORM_RULES[platform].defaultPreset.generator);

describe("the local generator", () => {
  test("a sentence said twice is posted once, on every platform", () => {
    // A voice note that comes back to its point, as people do (and PocketSphinx heard the shared speech looped).
    const body = [
      "What your country can do for you is only half the question.",
      "We spent the whole retreat arguing about budgets and who owns the roadmap.",
      "What your country can do for you is only half the question!",
      "The other half is what you can do for your team, every single week, without being asked.",
      "We agreed to meet again next month.",
    ].join(" ");
    for (const platform of ["x", "bluesky", "threads", "linkedin"] as Platform[]) {
      const post = generateLocally({ title: "Retreat", body, platform, preset: defaults(platform) }).body;
      assert.ok((post.match(/half the question/g) ?? []).length <= 1, `${platform}: ${post}`);
    }
  });

  test("is deterministic", () => {
    const input = { title: "T", body: NOTE, platform: "x" as Platform, preset: preset({ format: "thread", hashtags: ["db"] }) };
    assert.deepEqual(generateLocally(input), generateLocally(input));
  });

  for (const [name, body] of Object.entries(TEXTS)) {
    test(`${name} text: every post fits its limit and ends at a sentence boundary, on every platform and preset`, () => {
      for (const platform of PLATFORMS) {
        const limit = PLATFORM_RULES[platform].limit ?? Number.POSITIVE_INFINITY;
        const presets = [defaults(platform), ...(["short", "medium", "full"] as const).flatMap((l) => [preset({ length: l }), preset({ length: l, format: "thread" })])];
        for (const p of presets) {
          const out = generateLocally({ title: "A title", body, platform, preset: { ...p, hashtags: ["release"] }, terms: [{ misspelling: "cooper netties", correct: "Kubernetes" }, { misspelling: "post grass", correct: "Postgres" }] });
          const what = `${name} ${platform} ${p.length} ${p.format}`;
          assert.ok(out.body.trim(), what);
          for (const post of splitPosts(out.body)) {
            assert.ok(postLength(platform, post) <= limit, `${what}: ${postLength(platform, post)} > ${limit}`);
            const tagsOnly = /^(#\S+ ?)+\n\n\d+\/\d+$/u.test(post);
            assert.ok(tagsOnly || endsAtSentence(text(post)), `${what} ends mid-sentence: …${text(post).slice(-60)}`);
          }
          assert.match(out.body, /#release/, what);
        }
      }
    });
  }

  test("platforms with different limits get different texts", () => {
    for (const name of ["long", "list", "paragraphs", "german", "spanish"]) {
      const bodies = new Map<string, Platform>();
      for (const platform of ["x", "threads", "instagram", "linkedin"] as Platform[]) {
        const out = generateLocally({ title: "T", body: TEXTS[name], platform, preset: defaults(platform) });
        assert.ok(!bodies.has(out.body), `${name}: ${platform} got the same text as ${bodies.get(out.body)}`);
        bodies.set(out.body, platform);
      }
      const x = generateLocally({ title: "T", body: TEXTS[name], platform: "x", preset: preset({ length: "short" }) }).body;
      const mastodon = generateLocally({ title: "T", body: TEXTS[name], platform: "mastodon", preset: preset({ length: "short" }) }).body;
      assert.notEqual(x, mastodon, name);
    }
  });

  test("keeps whole sentences in their order, the strongest first as a hook on short platforms", () => {
    const out = generateLocally({ title: "T", body: TEXTS.list, platform: "x", preset: preset({ length: "short" }) }).body;
    const sentences = unitsOf(TEXTS.list).map((u) => u.text);
    const [hook, rest] = out.split("\n\n");
    assert.ok(sentences.includes(hook), hook);
    let at = -1;
    for (const s of unitsOf(rest ?? "").map((u) => u.text)) {
      const index = sentences.indexOf(s);
      assert.ok(index > at, `out of order or not the note's own sentence: ${s}`);
      at = index;
    }
  });

  test("a thread keeps every word, in order, split between sentences and numbered", () => {
    const out = generateLocally({ title: "T", body: NOTE, platform: "x", preset: preset({ format: "thread" }) });
    const posts = splitPosts(out.body);
    assert.ok(posts.length > 5);
    posts.forEach((post, i) => assert.ok(post.endsWith(`\n\n${i + 1}/${posts.length}`), post));
    const words = (s: string) => s.split(/\s+/).filter(Boolean);
    assert.deepEqual(words(posts.map(text).join(" ")), words(NOTE));
    for (const post of posts) assert.ok(text(post).startsWith("Sentence number"), post);
  });

  test("a list is kept whole with its lead-in line, or left out", () => {
    for (const platform of PLATFORMS) {
      const out = generateLocally({ title: "T", body: TEXTS.list, platform, preset: preset({ length: "short" }) }).body;
      const items = out.split("\n").filter((line) => line.startsWith("- ")).length;
      assert.ok(items === 0 || (items === 3 && out.includes("What I would do differently:\n- Start")), `${platform}: ${out}`);
    }
  });

  test("the title leads only where posts have titles, and never repeats the opening line", () => {
    const body = TEXTS.list;
    const titled = generateLocally({ title: "Lessons from our migration", body, platform: "blog", preset: preset({ includeTitle: true }) });
    assert.ok(titled.body.startsWith("Lessons from our migration\n\nWe moved"));
    const x = generateLocally({ title: "Lessons from our migration", body, platform: "x", preset: preset({ includeTitle: true }) });
    assert.ok(!x.body.includes("Lessons from our migration"));
    const duplicate = generateLocally({ title: "We moved our whole platform to Kubernetes last quarter.", body, platform: "newsletter", preset: preset({ includeTitle: true }) });
    assert.equal(duplicate.body.split("We moved our whole platform").length, 2, duplicate.body);
    // A master title that is the note's opening says nothing: a blog gets the note's own title (a
    // central clause as said, not its opening), LinkedIn no title line.
    const cutTitle = generateLocally({ title: "We moved our whole platform to Kubernetes last…", body, platform: "blog", preset: preset({ includeTitle: true }) });
    const own = titleOf(body, "en", { notOpening: true })!;
    assert.ok(own && !own.startsWith("We moved"), own);
    assert.ok(cutTitle.body.startsWith(`${own}\n\nWe moved our whole platform to Kubernetes last quarter.`), cutTitle.body);
    const linkedin = generateLocally({ title: "We moved our whole platform to Kubernetes last…", body, platform: "linkedin", preset: preset({ includeTitle: true }) });
    assert.ok(!linkedin.body.includes("last…") && !linkedin.body.startsWith(`${own}\n`), linkedin.body);
  });

  test("hashtags from the preset, then the dictionary terms the note mentions", () => {
    const out = generateLocally({ title: "T", body: TEXTS.list, platform: "instagram", preset: preset({ hashtags: ["devops"] }), terms: [{ misspelling: "cooper netties", correct: "Kubernetes" }, { misspelling: "machine leaning", correct: "machine learning" }, { misspelling: "post grass", correct: "Postgres" }] });
    assert.ok(out.body.endsWith("\n\n#devops #Kubernetes"), out.body);
    const ml = generateLocally({ title: "T", body: "We tried machine learning on the logs.", platform: "linkedin", preset: preset({ inviteReplies: false }), terms: [{ misspelling: "machine leaning", correct: "Machine Learning" }] });
    assert.equal(ml.body, "We tried machine learning on the logs.\n\n#MachineLearning");
  });

  test("a text that fits is kept as written; one sentence longer than a post is cut between words", () => {
    assert.equal(generateLocally({ title: "T", body: "One.\n\nTwo.\n\n\nThree.", platform: "linkedin", preset: preset({ inviteReplies: false }) }).body, "One.\n\nTwo.\n\nThree.");
    const word = "x".repeat(700);
    const posts = splitPosts(generateLocally({ title: "", body: word, platform: "x", preset: preset({ format: "thread" }) }).body);
    for (const post of posts) assert.ok(postLength("x", post) <= 280);
    assert.equal(posts.map(text).join(""), word);
    const single = generateLocally({ title: "", body: `${"word ".repeat(100)}end.`, platform: "x", preset: preset() }).body;
    assert.ok(postLength("x", single) <= 280 && single.endsWith("…"), single);
  });
});

describe("a writer's posts", () => {
  test("posts that fit one together are one post; a thread only when they do not (issue 69)", () => {
    const input = { title: "T", body: NOTE, platform: "x" as Platform, preset: preset({ format: "thread" }) };
    const one = fitPost(input, { posts: ["We shipped the editor.", "It saves as you type."] }).body;
    assert.equal(one, "We shipped the editor.\n\nIt saves as you type.");
    const long = [sentence(1).repeat(3), sentence(2).repeat(3)];
    const posts = splitPosts(fitPost(input, { posts: long }).body);
    assert.equal(posts.length, 2, posts.join(" | "));
    posts.forEach((post, i) => assert.ok(post.endsWith(`\n\n${i + 1}/2`) && postLength("x", post) <= 280, post));
  });
});

describe("sentence ranking", () => {
  test("splits sentences, not abbreviations, and keeps list items apart", () => {
    assert.deepEqual(
      unitsOf("Dr. Li said so, e.g. at 9 a.m. today. ¿Vienes? Ja, z. B. morgen.\n- one\n- two").map((u) => u.text),
      ["Dr. Li said so, e.g. at 9 a.m. today.", "¿Vienes?", "Ja, z. B. morgen.", "- one", "- two"],
    );
  });

  test("ranks the sentence that shares most with the others above an aside", () => {
    const units = unitsOf("Intro line here today. Postgres migrations need careful planning. Careful planning makes Postgres migrations safe. Lunch was fine. Safe migrations need Postgres backups and planning.");
    const scores = rankUnits(units);
    assert.ok(scores[1] > scores[3] && scores[2] > scores[3] && scores[4] > scores[3], scores.join(", "));
  });
});
