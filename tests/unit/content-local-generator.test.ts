import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateLocally } from "@/lib/content/generators/local.ts";
import { length, PLATFORM_LIMITS, splitPosts } from "@/lib/content/generators/platform-rules.ts";
import type { GeneratorPreset } from "@/lib/content/generators/types.ts";
import { PLATFORMS, type Platform } from "@/lib/channels/schemas.ts";

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

describe("the local generator", () => {
  test("is deterministic", () => {
    const input = { title: "T", body: NOTE, platform: "x" as Platform, preset: preset({ format: "thread", hashtags: ["db"] }) };
    assert.deepEqual(generateLocally(input), generateLocally(input));
  });

  test("respects every platform's limit, single posts and threads, with hashtags", () => {
    for (const platform of PLATFORMS) {
      const limit = PLATFORM_LIMITS[platform];
      for (const format of ["single", "thread"]) {
        const out = generateLocally({ title: "T", body: NOTE, platform, preset: preset({ format, hashtags: ["postgres", "migrations"] }) });
        const posts = splitPosts(out.body);
        for (const post of posts) if (limit) assert.ok(length(post) <= limit, `${platform} ${format}: ${length(post)} > ${limit}`);
        assert.ok(out.body.includes("#postgres #migrations"), `${platform} ${format} keeps the hashtags`);
        if (format === "single") assert.equal(posts.length, 1);
      }
    }
    assert.deepEqual(
      Object.fromEntries(["x", "bluesky", "threads", "mastodon", "linkedin", "instagram"].map((p) => [p, PLATFORM_LIMITS[p as Platform]])),
      { x: 280, bluesky: 300, threads: 500, mastodon: 500, linkedin: 3000, instagram: 2200 },
    );
  });

  test("a thread keeps every word, in order, numbered", () => {
    const out = generateLocally({ title: "T", body: NOTE, platform: "x", preset: preset({ format: "thread" }) });
    const posts = splitPosts(out.body);
    assert.ok(posts.length > 5);
    posts.forEach((post, i) => assert.ok(post.endsWith(`\n\n${i + 1}/${posts.length}`), post));
    const words = (s: string) => s.split(/\s+/).filter(Boolean);
    const text = posts.map((p) => p.replace(/\n\n\d+\/\d+$/, "")).join(" ");
    assert.deepEqual(words(text), words(NOTE));
  });

  test("keeps paragraphs, cuts a single post at a sentence with an ellipsis", () => {
    const short = generateLocally({ title: "T", body: "One.\n\nTwo.\n\n\nThree.", platform: "linkedin", preset: preset() });
    assert.equal(short.body, "One.\n\nTwo.\n\nThree.");
    const cut = generateLocally({ title: "T", body: NOTE, platform: "x", preset: preset() });
    assert.ok(cut.body.endsWith(".…"), cut.body);
    assert.ok(cut.body.startsWith(sentence(1)));
  });

  test("length picks paragraphs; include_title starts with the title", () => {
    const short = generateLocally({ title: "Title", body: NOTE, platform: "blog", preset: preset({ length: "short", includeTitle: true }) });
    assert.equal(short.body, `Title\n\n${paragraph(1, 4)}`);
    const medium = generateLocally({ title: "Title", body: NOTE, platform: "blog", preset: preset({ length: "medium" }) });
    assert.equal(medium.body, [paragraph(1, 4), paragraph(5, 4)].join("\n\n"));
    const full = generateLocally({ title: "Title", body: NOTE, platform: "newsletter", preset: preset() });
    assert.equal(full.body, NOTE);
  });

  test("a single word longer than a post is split, not lost", () => {
    const word = "x".repeat(700);
    const out = generateLocally({ title: "", body: word, platform: "x", preset: preset({ format: "thread" }) });
    const posts = splitPosts(out.body);
    for (const post of posts) assert.ok(length(post) <= 280);
    assert.equal(posts.map((p) => p.replace(/\n\n\d+\/\d+$/, "")).join(""), word);
  });
});
