// Benchmark: the offline (local) generator's time per 1,000 words of note, per platform and
// preset, on seeded synthetic notes of 1,000 to 20,000 words.
// Run: npm run bench:generate

import { performance } from "node:perf_hooks";
import { generateLocally } from "@/lib/posts/generators/local.ts";
import type { GeneratorPreset } from "@/lib/posts/generators/types.ts";
import type { Platform } from "@/lib/channels/schemas.ts";

const SIZES = [1_000, 5_000, 20_000];
const RUNS = 5;
const WORDS = "release team database migration deploy cluster budget customer editor feature review plan metric latency backup queue".split(" ");

function note(words: number, seed = 7): string {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const sentences: string[] = [];
  let count = 0;
  while (count < words) {
    const length = 8 + Math.floor(random() * 18);
    const sentence = Array.from({ length }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
    sentences.push(`${sentence[0].toUpperCase()}${sentence.slice(1)}.`);
    count += length;
  }
  const paragraphs: string[] = [];
  for (let i = 0; i < sentences.length; i += 5) paragraphs.push(sentences.slice(i, i + 5).join(" "));
  return paragraphs.join("\n\n");
}

const preset = (p: Partial<GeneratorPreset>): GeneratorPreset => ({ tone: "neutral", length: "full", format: "single", hashtags: ["notes"], includeTitle: false, ...p });
const CASES: [Platform, GeneratorPreset][] = [
  ["x", preset({ format: "thread" })],
  ["bluesky", preset({ length: "short" })],
  ["instagram", preset({ length: "medium" })],
  ["linkedin", preset({})],
  ["blog", preset({ includeTitle: true })],
];

console.log("words   platform   preset            median ms   ms per 1,000 words");
for (const words of SIZES) {
  const body = note(words);
  for (const [platform, p] of CASES) {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const start = performance.now();
      generateLocally({ title: "A note", body, platform, preset: p, terms: [{ misspelling: "post grass", correct: "Postgres" }, { misspelling: "cooper netties", correct: "Kubernetes" }] });
      times.push(performance.now() - start);
    }
    const median = times.sort((a, b) => a - b)[Math.floor(RUNS / 2)];
    const label = `${p.length}/${p.format}`;
    console.log(`${String(words).padEnd(7)} ${platform.padEnd(10)} ${label.padEnd(17)} ${median.toFixed(1).padStart(9)}   ${((median * 1000) / words).toFixed(2).padStart(8)}`);
  }
}
