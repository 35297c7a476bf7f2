import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PLATFORMS } from "@/lib/channels/schemas.ts";
import { platformFamily } from "@/lib/channels/platforms.ts";
import { INVITE_LINES, inviteRepliesLine } from "@/lib/posts/generators/invite-replies.ts";
import { titleOf } from "@/lib/writer/note-title.ts";
import { detectLanguage } from "@/lib/writer/note-language.ts";
import { hashtagCandidates, hashtagsFor } from "@/lib/posts/generators/hashtags.ts";
import { splitPosts } from "@/lib/posts/generators/platform-rules.ts";
import { checkPost, familyTexts, hashtagsOf, loadCorpus, sameAcrossFamilies, titleLineOf, writeNote } from "@/tests/support/writer-corpus.ts";

const CORPUS = loadCorpus();

describe("the offline writer over the corpus", () => {
  test("the corpus has notes of every size and the four languages", () => {
    assert.equal(CORPUS.length, 20);
    for (const language of ["de", "es", "fr"]) assert.ok(CORPUS.filter((n) => n.language === language).length >= 2, language);
  });

  for (const note of CORPUS) {
    test(`${note.id}: every platform's post is within its limit, with whole sentences, no everyday hashtag, no opening as title`, () => {
      for (const platform of PLATFORMS) {
        const out = writeNote(note, platform);
        const check = checkPost(note, platform, out);
        const what = `${note.id} ${platform}:\n${out.body}`;
        assert.ok(out.body.trim(), what);
        assert.ok(check.withinLimit, what);
        assert.ok(check.sentencesWhole, `a sentence was cut or changed: ${what}`);
        assert.deepEqual(check.everydayTags, [], what);
        assert.ok(!check.titleIsOpening, what);
        const tags = hashtagsOf(out.body);
        if (platformFamily(platform) === "short") assert.ok(tags.length <= 2, what);
        for (const tag of note.never_tags ?? []) assert.ok(!tags.includes(tag), what);
        for (const tag of note.expect_tags ?? []) assert.ok(tags.includes(tag), what);
      }
    });

    test(`${note.id}: short, professional and long posts differ`, () => {
      assert.deepEqual(sameAcrossFamilies(familyTexts(note)), []);
    });

    test(`${note.id}: LinkedIn and Facebook end with the invite line when the option is on, not when off`, () => {
      const line = inviteRepliesLine(note.text, note.language);
      assert.ok(line);
      for (const platform of ["linkedin", "facebook"] as const) {
        assert.ok(writeNote(note, platform).body.endsWith(line), platform);
        const off = writeNote(note, platform, { inviteReplies: false }).body;
        assert.ok(!INVITE_LINES.some((l) => off.includes(l)), off);
      }
      // Never on the other families.
      for (const platform of ["x", "bluesky", "newsletter"] as const) assert.ok(!writeNote(note, platform).body.includes(line), platform);
    });

    test(`${note.id}: newsletters and blogs get a title line, the note's own title`, () => {
      for (const platform of ["newsletter", "blog"] as const) {
        const body = writeNote(note, platform).body;
        const title = titleLineOf(note, body);
        assert.ok(title, body);
        assert.ok(title.split(" ").length <= 8 && title === titleOf(note.text, note.language, { notOpening: true }), title);
      }
    });
  }

  test("threads on X stay numbered and split between sentences", () => {
    const long = CORPUS.find((n) => n.id === "en-rambling-long")!;
    const posts = splitPosts(writeNote(long, "x").body);
    assert.ok(posts.length > 2);
    posts.forEach((post, i) => assert.ok(post.endsWith(`\n\n${i + 1}/${posts.length}`), post));
  });

  test("LinkedIn: a hook line, then paragraphs of one or two sentences", () => {
    const note = CORPUS.find((n) => n.id === "en-customer-call")!;
    const paragraphs = writeNote(note, "linkedin", { inviteReplies: false }).body.split("\n\n");
    assert.ok(paragraphs.length >= 4, paragraphs.join("|"));
    for (const paragraph of paragraphs) assert.ok((paragraph.match(/[.!?](\s|$)/g) ?? []).length <= 2, paragraph);
  });
});

describe("the writer's helpers", () => {
  test("guesses the language of each corpus note", () => {
    for (const note of CORPUS) assert.equal(detectLanguage(note.text), note.language, note.id);
  });

  test("the closing line is chosen by the text, in the note's language, and none for a language without lines", () => {
    assert.equal(inviteRepliesLine("a", "en"), inviteRepliesLine("a", "en"));
    const lines = new Set(CORPUS.filter((n) => n.language === "en").map((n) => inviteRepliesLine(n.text, "en")));
    assert.ok(lines.size >= 2, [...lines].join(" | "));
    assert.match(inviteRepliesLine("x", "de")!, /ihr|euch|eure/);
    assert.equal(inviteRepliesLine("x", "pl"), null);
  });

  test("a post's title is the note's: a phrase said twice, else a clause as said, never one word; nothing to name: Voice note", () => {
    assert.equal(titleOf("The Kubernetes cluster is great. Our Kubernetes cluster runs the scheduler.", "en"), "Kubernetes cluster");
    assert.equal(titleOf("We shipped the new editor today. It saves as you type.", "en"), "We shipped the new editor");
    assert.equal(titleOf("We shipped the new editor today. It saves as you type.", "en", { notOpening: true }), "It saves as you type");
    assert.equal(titleOf("and the of it", "en"), "Voice note");
  });

  test("hashtags: dictionary names and recurring capitalised names; not wording fixes, not sentence openers", () => {
    const source = { preset: [], body: "", platform: "linkedin" as const, language: "en" };
    const terms = [
      { misspelling: "my", correct: "Mighty" },
      { misspelling: "cooper netties", correct: "Kubernetes" },
      { misspelling: "the", correct: "Teh" },
    ];
    const body = "Mighty good: Kubernetes runs. Mighty Teh. Teh Kubernetes. Deploys are fast. Deploys are cheap. We met Lena and Lena said yes.";
    assert.deepEqual(hashtagCandidates({ ...source, terms, body }), ["Kubernetes", "Kubernetes"], "Lena is a person: not a topic (issue 69)");
  });

  test("hashtags never name people, though they recur or are in the dictionary: a name is not a topic (issue 69)", () => {
    const body =
      "Standup notes. Priya is finishing the export job, and Marcus found the leak in Kubernetes. I will pair with Marcus on the retry logic. " +
      "Priya also wants a review of the Kubernetes upgrade. Call Dana about it; Dana said the budget is fine.";
    const terms = [{ misspelling: "pre ya", correct: "Priya" }, { misspelling: "cooper netties", correct: "Kubernetes" }];
    const tags = hashtagsFor({ preset: [], terms, body, platform: "x", language: "en" }, 280, (s) => s.length);
    assert.equal(tags, "#Kubernetes");
  });
});
