// Benchmark: what the offline writer makes of the writer corpus (tests/fixtures/notes/corpus.json,
// 20 voice notes in en, de, es, fr), every note on every platform with the platform's default
// preset. Prints counts, never asserts: posts within their limit, sentences kept whole, texts
// distinct across platform families, hashtags that are everyday words (should be 0) and titles
// that are the note's first words (should be 0).
// Run: npm run bench:writer
//
// Sections are functions run in order below; a later one (time to first token against a stand-in
// chat server) adds its own function and a line in main().

import { performance } from "node:perf_hooks";
import { PLATFORMS } from "@/lib/channels/schemas.ts";
import { platformFamily } from "@/lib/content/generators/local.ts";
import { checkPost, familyTexts, loadCorpus, sameAcrossFamilies, titleLineOf, writeNote } from "@/tests/support/writer-corpus.ts";

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

function main(): void {
  offlineQuality();
}

main();
