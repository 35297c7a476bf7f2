// Search (issue 24): GET /api/v1/transcriptions?q= over 10,000 notes of about 300 words each, in
// the embedded database (PGlite, in memory, behind the same wire port the app uses). Text is
// drawn from a Zipf-like distribution over ~3,000 words (deterministic seed), so common words
// match most notes and rare ones a few, like real notes. Prints p50/p95/max per kind of query.
//
// Run: npm run bench:search [-- --notes 10000 --words 300 --runs 40 --no-clean-ups]
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { benchUser } from "@/bench/support.ts";
import { seededRandom } from "@/bench/random.ts";

const { values } = parseArgs({
  options: {
    notes: { type: "string", default: "10000" },
    words: { type: "string", default: "300" },
    runs: { type: "string", default: "40" },
    "no-clean-ups": { type: "boolean", default: false },
  },
});
const NOTES = Number(values.notes);
const WORDS = Number(values.words);
const RUNS = Number(values.runs);
const CLEAN_UPS = !values["no-clean-ups"];
process.env.LOG_LEVEL ??= "silent";

const random = seededRandom(24); // deterministic inputs

const SYLLABLES = ["ka", "lo", "mi", "ren", "to", "sa", "vel", "dor", "pi", "an", "ex", "qu", "is", "mon", "ter", "ul"];
const vocabulary = Array.from({ length: 3000 }, (_, i) => {
  let word = "";
  for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word;
});
// Zipf: the word of rank r is drawn with weight 1/r.
const weights = vocabulary.map((_, r) => 1 / (r + 1));
const cumulative = weights.map(((sum) => (w: number) => (sum += w))(0));
const total = cumulative.at(-1)!;
function word(): string {
  const x = random() * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return vocabulary[lo];
}
const noteText = () => Array.from({ length: WORDS }, (_, i) => (i % 12 === 11 ? `${word()}.` : word())).join(" ");

const bench = await benchUser([]);
const user = await bench.prisma.user.findFirstOrThrow();
const started = performance.now();
for (let done = 0; done < NOTES; done += 500) {
  const batch = Array.from({ length: Math.min(500, NOTES - done) }, () => {
    const text = noteText();
    return { userId: user.id, text, rawText: text, language: "en", durationSec: 120, engine: "bench", audioSha256: "0".repeat(64), requestHash: String(random()) };
  });
  // Each note with its clean-up, as the optimizer leaves it (the same words here): search reads both.
  const cleanUps = CLEAN_UPS
    ? batch.map((note) => ({
        id: randomUUID(), userId: user.id, requestHash: note.requestHash, name: "bench", optimizer: "local", mode: "inline",
        status: "completed", language: "en", callId: randomUUID(), chunksTotal: 1, chunksDone: 1, optimizedText: note.text,
      }))
    : [];
  await bench.prisma.cleanUpWorkflow.createMany({ data: cleanUps });
  await bench.prisma.note.createMany({ data: batch.map((note, i) => ({ ...note, optimizationId: cleanUps[i]?.id })) });
}
console.log(`${NOTES} notes of ${WORDS} words${CLEAN_UPS ? ", each with its clean-up," : ""} stored in ${((performance.now() - started) / 1000).toFixed(1)} s`);
const { refreshSearchStatistics, searchNotes } = await import("@/lib/notes/search-notes.ts");
// What the app's background work does on the embedded database every 10 minutes (it has no
// autovacuum; the wire port here looks like PostgreSQL to lib/db, so it is asked for).
await refreshSearchStatistics({ always: true });

const QUERIES: Record<string, () => string> = {
  "common word (most notes)": () => vocabulary[Math.floor(random() * 5)],
  "mid word (hundreds of notes)": () => vocabulary[200 + Math.floor(random() * 100)],
  "rare word (a few notes)": () => vocabulary[2500 + Math.floor(random() * 400)],
  "two words": () => `${vocabulary[20 + Math.floor(random() * 50)]} ${vocabulary[300 + Math.floor(random() * 200)]}`,
  '"phrase" -excluded': () => `"${word()} ${word()}" -${vocabulary[1]}`,
};
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const all: number[] = [];
for (const [name, make] of Object.entries(QUERIES)) {
  await searchNotes({ userId: user.id, input: { q: make(), limit: 20 } }); // warm
  const times: number[] = [];
  let found = 0;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const page = await searchNotes({ userId: user.id, input: { q: make(), limit: 20 } });
    times.push(performance.now() - t);
    found += page.transcriptions.length;
  }
  times.sort((a, b) => a - b);
  all.push(...times);
  console.log(`${name.padEnd(30)} p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${percentile(times, 95).toFixed(1)} ms  max ${times.at(-1)!.toFixed(1)} ms  (${(found / RUNS).toFixed(1)} results a page)`);
}
all.sort((a, b) => a - b);
console.log(`all ${all.length} searches: p50 ${percentile(all, 50).toFixed(1)} ms, p95 ${percentile(all, 95).toFixed(1)} ms (target: p95 ≤ 50 ms)`);
await bench.close();
