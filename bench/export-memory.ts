// npm run bench:export – GET /api/v1/export of a large account on a fresh PostgreSQL database
// (TEST_DATABASE_URL, default the local server): N notes (default 500) each with a 1 MB kept
// recording in the file store, plus 1,000 dictionary entries and 500 posts. Prints the archive's
// size, the time, and the process's peak RSS and heap growth while it streams, to show that
// memory stays flat (a batch of rows and a chunk of audio) instead of growing with the archive.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { notes: { type: "string", default: "500" }, "audio-kb": { type: "string", default: "1024" } } });
const notes = Number(values.notes);
const dir = mkdtempSync(path.join(tmpdir(), "vd-bench-export-"));
process.env.LOG_LEVEL = "silent";
process.env.DATA_DIR = dir;
const { createEmptyDatabase } = await import("@/tests/support/database.ts");
const { migrateDatabase } = await import("@/lib/db/migrate.ts");
const database = await createEmptyDatabase("postgres");
try {
  await migrateDatabase(database.url);
  process.env.DATABASE_URL = database.url;
  (await import("@/lib/env.ts")).resetEnvCache();
  const { createUser } = await import("@/lib/accounts/create-user.ts");
  const { db, closeDb } = await import("@/lib/db/client.ts");
  const { fileAudioStore } = await import("@/lib/note-audio/file-audio-store.ts");
  const { exportStream } = await import("@/lib/export/export-archive.ts");
  const user = await createUser({ input: { email: "bench@example.com", password: "correct horse battery staple" } });
  const prisma = await db();
  const audio = path.join(dir, "audio.webm");
  writeFileSync(audio, randomBytes(Number(values["audio-kb"]) * 1024));
  const text = "So this is a note of some length, spoken on the way to work. ".repeat(40);
  for (let i = 0; i < notes; i++) {
    const note = await prisma.note.create({
      data: { userId: user.id, text, rawText: text, language: "en", durationSec: 60, engine: "bench", audioSha256: "0".repeat(64), requestHash: randomBytes(32).toString("hex") },
    });
    const bytes = await fileAudioStore.put({ userId: user.id, transcriptionId: note.id }, audio);
    await prisma.note.update({ where: { id: note.id }, data: { audioStorage: "file", audioType: "audio/webm", audioBytes: bytes, audioKeptAt: new Date() } });
    await prisma.post.create({ data: { userId: user.id, kind: "master", title: `Post ${i}`, body: text, contentHash: `${i}`, sourceTranscriptionId: note.id } });
  }
  await prisma.dictionaryEntry.createMany({
    data: Array.from({ length: 1000 }, (_, i) => ({ userId: user.id, misspelling: `word ${i}, "quoted"`, correctSpelling: `Word${i}`, matchKey: `word ${i}` })),
  });
  global.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sample = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 20);
  const started = performance.now();
  let size = 0;
  const reader = exportStream({ userId: user.id }).getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) size += next.value.byteLength;
  const ms = performance.now() - started;
  clearInterval(sample);
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  console.log(`export of ${notes} notes with ${values["audio-kb"]} KB of audio each: ${mb(size)} MB in ${(ms / 1000).toFixed(2)} s (${mb(size / (ms / 1000))} MB/s)`);
  console.log(`rss ${mb(before.rss)} MB before, peak ${mb(peakRss)} MB (+${mb(peakRss - before.rss)}); heap peak +${mb(peakHeap - before.heapUsed)} MB`);
  await closeDb();
} finally {
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
}
