// Benchmark: what the offline writer makes of the writer corpus (tests/fixtures/notes/corpus.json,
// 20 voice notes in en, de, es, fr), every note on every platform with the platform's default
// preset. Prints counts, never asserts: posts within their limit, sentences kept whole, texts
// distinct across platform families, hashtags that are everyday words (should be 0) and titles
// that are the note's first words (should be 0).
// Run: npm run bench:writer
//
// Then the writer's latency against the tests' stand-in chat server: time to first token and to
// the whole post (streamed).

import { performance } from "node:perf_hooks";
import { PLATFORMS } from "@/lib/channels/schemas.ts";
import { platformFamily } from "@/lib/channels/platforms.ts";
import { checkPost, defaultPreset, familyTexts, loadCorpus, sameAcrossFamilies, titleLineOf, writeNote } from "@/tests/support/writer-corpus.ts";
import { startChatServer } from "@/tests/support/chat-server.ts";
import { resetEnvCache } from "@/lib/env.ts";
import { writePost } from "@/lib/posts/generators/writer.ts";

const pct = (n: number, of: number) => `${n}/${of} (${((100 * n) / Math.max(of, 1)).toFixed(1)}%)`;

function offlineQuality(): void {
  const corpus = loadCorpus();
  let posts = 0;
  let within = 0;
  let whole = 0;
  let everydayTags = 0;
  let titles = 0;
  let openingTitles = 0;
  let distinctNotes = 0;
  const times: number[] = [];
  for (const note of corpus) {
    for (const platform of PLATFORMS) {
      const start = performance.now();
      const out = writeNote(note, platform);
      times.push(performance.now() - start);
      const check = checkPost(note, platform, out);
      posts += 1;
      within += Number(check.withinLimit);
      whole += Number(check.sentencesWhole);
      everydayTags += check.everydayTags.length;
      if (platformFamily(platform) === "long" && titleLineOf(note, out.body)) titles += 1;
      openingTitles += Number(check.titleIsOpening);
    }
    if (sameAcrossFamilies(familyTexts(note)).length === 0) distinctNotes += 1;
  }
  times.sort((a, b) => a - b);
  console.log(`offline writer over ${corpus.length} notes × ${PLATFORMS.length} platforms (default presets)`);
  console.log(`  posts within their limit            ${pct(within, posts)}`);
  console.log(`  posts with every sentence whole     ${pct(whole, posts)}`);
  console.log(`  notes distinct per platform family  ${pct(distinctNotes, corpus.length)}`);
  console.log(`  hashtags that are everyday words    ${everydayTags}`);
  console.log(`  newsletter/blog posts with a title  ${titles}`);
  console.log(`  titles equal to the first words     ${openingTitles}`);
  console.log(`  ms per post: median ${times[Math.floor(times.length / 2)].toFixed(2)}, max ${times.at(-1)!.toFixed(2)}`);
}

/**
 * Posts written by a writer through the whole path (prompt, streamed structured answer, fitting),
 * against the stand-in chat server of the tests, which streams each word after WORD_MS (about a
 * small local model's pace). Time to first token: from the call to the first words of the post;
 * time to the whole post: to the fitted result. What the stand-in adds is its pace; the rest is ours.
 */
async function writerLatency(): Promise<void> {
  const WORD_MS = Number(process.env.BENCH_WORD_MS ?? 15);
  const notes = loadCorpus();
  const server = await startChatServer((req) => {
    const note = notes.find((n) => req.user.endsWith(n.text)) ?? notes[0];
    return { content: JSON.stringify({ title: "", posts: [note.text.split(/(?<=[.!?])\s+/).slice(0, 4).join(" ")] }), chunkDelayMs: WORD_MS };
  });
  Object.assign(process.env, { WRITER_BASE_URL: server.baseUrl, WRITER_MODEL: "stand-in", LOG_LEVEL: "silent" });
  resetEnvCache();
  const first: number[] = [];
  const whole: number[] = [];
  let byWriter = 0;
  try {
    for (const note of notes) {
      for (const platform of ["x", "linkedin", "newsletter"] as const) {
        const start = performance.now();
        let firstAt = 0;
        const out = await writePost(
          { title: "", body: note.text, platform, preset: defaultPreset(platform), terms: note.dictionary ?? [], language: note.language },
          {
            onPartial: (text) => {
              if (!firstAt && text.trim()) firstAt = performance.now();
            },
          },
        );
        whole.push(performance.now() - start);
        first.push((firstAt || performance.now()) - start);
        byWriter += Number(out.writtenBy === "writer");
      }
    }
  } finally {
    await server.close();
  }
  const stat = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return `median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, p95 ${sorted[Math.floor(sorted.length * 0.95)].toFixed(0)} ms`;
  };
  console.log(`writer against the stand-in chat server (streamed, ${WORD_MS} ms a word), ${whole.length} posts`);
  console.log(`  written by the writer               ${pct(byWriter, whole.length)}`);
  console.log(`  time to first token                 ${stat(first)}`);
  console.log(`  time to the whole post              ${stat(whole)}`);
}

async function main(): Promise<void> {
  offlineQuality();
  console.log("");
  await writerLatency();
}

await main();
