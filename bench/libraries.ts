// The home-made parts against the well-kept libraries that could replace them (issue 26):
// lib/log.ts vs pino, bounded-queue.ts vs p-queue, bounded-map.ts vs lru-cache, word-diff.ts vs
// diff, audio-format.ts vs file-type. For each pair: throughput over a realistic workload, install
// size (du of the package and its dependency closure in node_modules), dependency count, and
// whether the library gives the same answers on the project's own test inputs. Deterministic
// inputs (mulberry32); audio is the real speech in tests/fixtures (or AUDIO_DIR) and what
// ffmpeg makes from it. Throughput is the best of three runs. About 40 s.
//
// Run: npm run bench:libraries
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { seededRandom } from "@/bench/random.ts";

const { values } = parseArgs({ options: { child: { type: "string" } } });
process.env.LOG_LEVEL ??= "info";

// ---------------------------------------------------------------------------------------------
// Logs: run in a child process whose stdout and stderr are /dev/null; results come back on fd 3.
const LOG_LINES = 200_000;
const requestFields = (i: number) => ({ request_id: `req_${i.toString(36).padStart(8, "0")}`, route: "/api/v1/dictionary/add", method: "POST", status: 201, duration_ms: (i % 97) / 10 });

if (values.child) {
  const rssBefore = process.memoryUsage().rss;
  const importStart = performance.now();
  let info: (msg: string, fields: Record<string, unknown>) => void;
  let flush = async () => {};
  if (values.child === "home") {
    const { log } = await import("@/lib/log.ts");
    info = log.info;
  } else {
    const { pino } = await import("pino");
    const sync = values.child === "pino-sync";
    const destination = pino.destination({ dest: 1, sync, minLength: sync ? 0 : 4096 });
    const logger = pino({ level: "info", base: undefined, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } }, destination);
    info = (msg, fields) => logger.info(fields, msg);
    flush = () => new Promise<void>((resolve) => destination.flush(() => resolve()));
  }
  const importMs = performance.now() - importStart;
  const rssImported = process.memoryUsage().rss;
  for (let i = 0; i < 2000; i++) info("request", requestFields(i)); // warm
  await flush();
  const started = performance.now();
  for (let i = 0; i < LOG_LINES; i++) info("request", requestFields(i));
  await flush();
  const ms = performance.now() - started;
  const rss = process.memoryUsage().rss;
  writeSync(3, JSON.stringify({ importMs, importMb: (rssImported - rssBefore) / 2 ** 20, ms, rssMb: (rss - rssImported) / 2 ** 20 }));
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// Shared helpers.
let random = seededRandom(26); // each section starts again from the same seed
function table(header: string[], body: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of body) console.log(line(r));
  console.log();
}
const fmt = (n: number, digits = 2) => (n >= 100 ? n.toFixed(0) : n.toFixed(digits));
const opsPerSec = (ops: number, ms: number) => `${(ops / (ms / 1000)).toLocaleString("en-US", { maximumFractionDigits: 0 })}/s`;
const usPerOp = (ops: number, ms: number) => `${fmt((ms * 1000) / ops)} µs`;
/** The fastest of three runs (the machine may be shared): `ms` is compared, the rest kept. */
async function bestOf3<T extends { ms: number }>(run: () => T | Promise<T>): Promise<T> {
  let best: T | undefined;
  for (let i = 0; i < 3; i++) {
    const r = await run();
    if (!best || r.ms < best.ms) best = r;
  }
  return best!;
}

/** The package's directory and that of each dependency it needs, as node resolves them. */
function closure(name: string): { dirs: string[]; names: string[] } {
  const found = new Map<string, string>(); // directory → package name
  const visit = (pkg: string, from: string) => {
    for (let dir = from; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, "node_modules", pkg);
      if (existsSync(path.join(candidate, "package.json"))) {
        if (found.has(candidate)) return;
        found.set(candidate, pkg);
        const manifest = JSON.parse(readFileSync(path.join(candidate, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
        for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, candidate);
        return;
      }
      if (path.dirname(dir) === dir) return;
    }
  };
  visit(name, process.cwd());
  return { dirs: [...found.keys()], names: [...found.values()] };
}
function installSize(name: string): { kb: number; deps: number; names: string[] } {
  const { dirs, names } = closure(name);
  const out = execFileSync("du", ["-sck", ...dirs], { encoding: "utf8" });
  return { kb: Number(out.trim().split("\n").at(-1)!.split("\t")[0]), deps: dirs.length - 1, names: names.slice(1) };
}
const homeSize = (...files: string[]) => {
  const text = files.map((f) => readFileSync(f, "utf8")).join("");
  return `${files.length > 1 ? "files: " : ""}${text.split("\n").length - 1} lines, ${fmt(Buffer.byteLength(text) / 1024, 1)} kB`;
};
const summary: string[][] = [];
function installRow(pkg: string): string {
  const size = installSize(pkg);
  const version = (JSON.parse(readFileSync(path.join("node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;
  console.log(`${pkg}@${version}: ${size.kb} kB installed with ${size.deps} dependencies${size.deps ? ` (${size.names.join(", ")})` : ""}`);
  return `${pkg}@${version}: ${size.kb} kB, ${size.deps} deps`;
}

// ---------------------------------------------------------------------------------------------
console.log("## Structured logs: lib/log.ts vs pino\n");
{
  const runChild = (mode: string) =>
    new Promise<{ importMs: number; importMb: number; ms: number; rssMb: number }>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "libraries.ts"), "--child", mode], {
        stdio: ["ignore", "ignore", "ignore", "pipe"],
        env: { ...process.env, LOG_LEVEL: "info" },
      });
      let out = "";
      child.stdio[3]!.on("data", (d: Buffer) => (out += d));
      child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`log child ${mode} exited ${code}`))));
    });
  const body: string[][] = [];
  const results: Record<string, number> = {};
  for (const [mode, label] of [["home", "lib/log.ts (process.stdout.write)"], ["pino-sync", "pino, sync destination"], ["pino-async", "pino, async destination (4 kB buffer)"]]) {
    const r = await bestOf3(() => runChild(mode));
    results[mode] = r.ms;
    body.push([label, opsPerSec(LOG_LINES, r.ms), usPerOp(LOG_LINES, r.ms), `${fmt(r.importMs, 1)} ms, +${fmt(r.importMb, 1)} MB`, `+${fmt(r.rssMb, 1)} MB`]);
  }
  table(["logger (200,000 request lines to /dev/null)", "lines/s", "per line", "import (RSS)", "RSS during the run"], body);
  console.log("lib/log.ts's import includes lib/env.ts and zod, which the app loads anyway.");

  // The same line from both, parsed: the fields a log reader (and tests/system/server.test.ts) uses.
  const { pino } = await import("pino");
  let pinoLine = "";
  pino({ level: "info", base: undefined, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } }, { write: (s: string) => (pinoLine = s) }).info(requestFields(1), "request");
  const homeLine = JSON.stringify({ time: new Date().toISOString(), level: "info", msg: "request", ...requestFields(1) });
  const shape = (line: string) => {
    const o = JSON.parse(line) as Record<string, unknown>;
    return `${typeof o.time === "string" && !Number.isNaN(Date.parse(o.time as string)) ? "time ISO" : "time ?"}, level ${JSON.stringify(o.level)}, msg ${JSON.stringify(o.msg)}, ${Object.keys(o).length} keys`;
  };
  console.log(`lib/log.ts: ${homeLine}`);
  console.log(`pino:       ${pinoLine.trim()}`);
  const same = shape(homeLine) === shape(pinoLine);
  console.log(`same fields (configured: base undefined, isoTime, level label): ${same} — ${shape(pinoLine)}`);
  console.log("not in pino's API: log.info(msg, fields) with warn/error to stderr needs the same wrapper (or pino.multistream).");
  const size = installRow("pino");
  console.log(homeSize("lib/log.ts"));
  console.log();
  summary.push(["logs", `lib/log.ts ${usPerOp(LOG_LINES, results.home)}/line`, `pino ${usPerOp(LOG_LINES, results["pino-sync"])}/line (sync)`, size, same ? "same JSON fields" : "differs"]);
}

// ---------------------------------------------------------------------------------------------
console.log("## Bounded queue: bounded-queue.ts vs p-queue\n");
{
  const { BoundedQueue } = await import("@/lib/transcription/recognizers/bounded-queue.ts");
  const { default: PQueue } = await import("p-queue");
  const { EngineBusyError } = await import("@/lib/transcription/recognizers/types.ts");
  type Runner = { run: <T>(task: () => Promise<T>, signal?: AbortSignal) => Promise<T>; cancelWaiting: (reason: unknown) => void };
  const home = (concurrency: number, maxWaiting: number): Runner => new BoundedQueue(concurrency, maxWaiting);
  // p-queue with the smallest wrapper that gives the 503 refusal when the waiting line is full.
  const library = (concurrency: number, maxWaiting: number): Runner => {
    const queue = new PQueue({ concurrency });
    return {
      run: (task, signal) =>
        queue.pending >= concurrency && queue.size >= maxWaiting ? Promise.reject(new EngineBusyError("busy", 5)) : queue.add(task, { signal }),
      cancelWaiting: () => queue.clear(),
    };
  };
  const TASKS = 200_000;
  const work = async () => {
    await null;
    return 1;
  };
  const measure = async (make: (c: number, w: number) => Runner, concurrency: number, maxWaiting: number) => {
    const queue = make(concurrency, maxWaiting);
    let refused = 0;
    const burst = concurrency + maxWaiting + 2; // two more than fit: refused at once
    const started = performance.now();
    for (let done = 0; done < TASKS; done += burst) {
      const outcomes = await Promise.allSettled(Array.from({ length: burst }, () => queue.run(work)));
      refused += outcomes.filter((o) => o.status === "rejected").length;
    }
    return { ms: performance.now() - started, refused };
  };
  const body: string[][] = [];
  const perOp: Record<string, number> = {};
  for (const [concurrency, maxWaiting] of [[1, 4], [2, 16]]) {
    for (const [label, make] of [["bounded-queue.ts", home], ["p-queue + refusal check", library]] as const) {
      await measure(make, concurrency, maxWaiting); // warm
      const r = await bestOf3(() => measure(make, concurrency, maxWaiting));
      perOp[`${label}${concurrency}`] = r.ms;
      body.push([label, `${concurrency}`, `${maxWaiting}`, opsPerSec(TASKS, r.ms), usPerOp(TASKS, r.ms), `${r.refused}`]);
    }
  }
  table(["queue (200,000 tasks in bursts 2 over the bound)", "concurrency", "max waiting", "tasks/s", "per task", "refused"], body);

  // Behaviour the recognizers rely on (tests/unit/bounded-queue.test.ts).
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const gate = () => {
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    return { task: async () => ((started = true), await done, "done"), release, started: () => started };
  };
  const settlesSoon = (p: Promise<unknown>) => Promise.race([p.then(() => true, () => true), new Promise<boolean>((r) => setTimeout(() => r(false), 50))]);
  const checks: string[][] = [];
  for (const [label, make] of [["bounded-queue.ts", home], ["p-queue", library]] as const) {
    // An aborted running task (whisper.cpp cannot be interrupted) keeps its slot until it ends.
    const q1 = make(1, 2);
    const [a, b] = [gate(), gate()];
    const abort = new AbortController();
    const first = q1.run(a.task, abort.signal).catch(() => "aborted");
    await tick();
    abort.abort(new Error("left"));
    await first;
    const second = q1.run(b.task);
    await tick();
    await tick();
    const slotKept = !b.started();
    a.release();
    await tick();
    await tick();
    b.release();
    await second;
    // Refusing the waiting line (the engine is closing) answers every waiting caller.
    const q2 = make(1, 2);
    const c = gate();
    const running = q2.run(c.task);
    const waiting = q2.run(async () => "never");
    q2.cancelWaiting(new Error("closed"));
    const answered = await settlesSoon(waiting);
    c.release();
    await running;
    // An aborted waiting task never starts.
    const q3 = make(1, 2);
    const d = gate();
    const e = gate();
    const held = q3.run(d.task);
    const abortWaiting = new AbortController();
    const queued = q3.run(e.task, abortWaiting.signal).catch(() => "aborted");
    abortWaiting.abort(new Error("gone"));
    await queued;
    d.release();
    await held;
    await tick();
    checks.push([label, label === "p-queue" ? "no (wrapper: 1 line)" : "yes (EngineBusyError)", slotKept ? "yes" : "no: the next task starts at once", answered ? "yes" : "no: clear() leaves them pending forever", e.started() ? "no" : "yes"]);
  }
  table(["queue", "refuses when the line is full", "aborted running task keeps its slot", "cancelWaiting answers the waiting", "aborted waiting task never starts"], checks);
  const size = installRow("p-queue");
  console.log(homeSize("lib/transcription/recognizers/bounded-queue.ts"));
  console.log();
  summary.push(["bounded queue", `bounded-queue.ts ${usPerOp(TASKS, perOp["bounded-queue.ts1"])}/task`, `p-queue ${usPerOp(TASKS, perOp["p-queue + refusal check1"])}/task`, size, "differs: abort frees the slot, clear() never answers"]);
}

// ---------------------------------------------------------------------------------------------
console.log("## Bounded map: bounded-map.ts vs lru-cache\n");
{
  const { setBounded } = await import("@/lib/bounded-map.ts");
  const { LRUCache } = await import("lru-cache");
  // The rate limiter's shape (lib/rate-limit/batched-limit.ts): per id, a count that resets at the
  // end of its window. 400,000 requests from 30,000 ids (Zipf-like: a few busy, many rare) at 1 ms
  // apiece, a 60 s window, at most 10,000 ids kept. A "hit" is a request whose id was still kept.
  const OPS = 400_000;
  const MAX = 10_000;
  const WINDOW = 60_000;
  const IDS = 30_000;
  random = seededRandom(26);
  const ids = Array.from({ length: OPS }, () => `key_${Math.floor(IDS ** random())}`);
  type Count = { count: number; resetAt: number };
  const homeRun = () => {
    const map = new Map<string, Count>();
    let hits = 0;
    let largest = 0;
    const started = performance.now();
    for (let now = 0; now < OPS; now++) {
      const id = ids[now];
      const old = map.get(id);
      if (old && old.resetAt > now) hits++;
      const count = old && old.resetAt > now ? { count: old.count + 1, resetAt: old.resetAt } : { count: 1, resetAt: now + WINDOW };
      setBounded(map, id, count, MAX, (v) => v.resetAt <= now);
      largest = Math.max(largest, map.size);
    }
    return { ms: performance.now() - started, hits, largest };
  };
  const libraryRun = () => {
    let now = 0;
    const cache = new LRUCache<string, Count>({ max: MAX, ttl: WINDOW, perf: { now: () => now } });
    let hits = 0;
    let largest = 0;
    const started = performance.now();
    for (; now < OPS; now++) {
      const id = ids[now];
      const old = cache.get(id);
      if (old) hits++;
      if (old) cache.set(id, { count: old.count + 1, resetAt: old.resetAt }, { ttl: old.resetAt - now });
      else cache.set(id, { count: 1, resetAt: now + WINDOW });
      largest = Math.max(largest, cache.size);
    }
    return { ms: performance.now() - started, hits, largest };
  };
  homeRun();
  libraryRun();
  const h = await bestOf3(homeRun);
  const l = await bestOf3(libraryRun);
  table(
    ["map (400,000 get+set, 30,000 ids, max 10,000)", "ops/s", "per get+set", "ids still kept (hits)", "largest size"],
    [
      ["bounded-map.ts: stale first, then all", opsPerSec(OPS, h.ms), usPerOp(OPS, h.ms), `${((100 * h.hits) / OPS).toFixed(1)} %`, `${h.largest}`],
      ["lru-cache: least recently used, ttl", opsPerSec(OPS, l.ms), usPerOp(OPS, l.ms), `${((100 * l.hits) / OPS).toFixed(1)} %`, `${l.largest}`],
    ],
  );
  // tests/unit/bounded-map.test.ts: the stale entry goes first; when none is stale, everything goes.
  const m = new Map<string, number>([["a", 1], ["b", 2], ["c", 3]]);
  setBounded(m, "d", 4, 3, (v) => v < 2);
  const c = new LRUCache<string, number>({ max: 3 });
  for (const [k, v] of [["a", 1], ["b", 2], ["c", 3]] as const) c.set(k, v);
  c.get("a"); // "a" was read last: LRU keeps it and drops "b", whatever is stale
  c.set("d", 4);
  console.log(`evicting at the bound, a stale "a" read last: bounded-map.ts keeps ${JSON.stringify([...m.keys()])}, lru-cache keeps ${JSON.stringify([...c.keys()].reverse())}`);
  const size = installRow("lru-cache");
  console.log(homeSize("lib/bounded-map.ts"));
  console.log();
  summary.push(["bounded map", `bounded-map.ts ${usPerOp(OPS, h.ms)}/op, ${((100 * h.hits) / OPS).toFixed(0)} % kept`, `lru-cache ${usPerOp(OPS, l.ms)}/op, ${((100 * l.hits) / OPS).toFixed(0)} % kept`, size, "differs: evicts by recency, not staleness"]);
}

// ---------------------------------------------------------------------------------------------
console.log("## Word diff: word-diff.ts vs diff (diffArrays)\n");
{
  const { matchedPairs } = await import("@/lib/dictionary/word-diff.ts");
  const { diffArrays } = await import("diff");
  const { foldToken } = await import("@/lib/dictionary/match-key.ts");
  const viaDiff = (a: readonly string[], b: readonly string[], maxEdits = 4000): [number, number][] | null => {
    const changes = diffArrays(a as string[], b as string[], { maxEditLength: maxEdits });
    if (!changes) return null;
    const pairs: [number, number][] = [];
    let i = 0;
    let j = 0;
    for (const change of changes) {
      const n = change.count ?? change.value.length;
      if (change.added) j += n;
      else if (change.removed) i += n;
      else for (let k = 0; k < n; k++) pairs.push([i++, j++]);
    }
    return pairs;
  };
  random = seededRandom(26);
  const vocabulary = Array.from({ length: 2000 }, (_, r) => `w${r.toString(36)}`);
  const pick = () => vocabulary[Math.floor(vocabulary.length * random() ** 3)];
  const transcript = (n: number) => Array.from({ length: n }, pick);
  // A 300-word transcript and its edited version: ~20 substitutions of 1–2 words, a few insertions and deletions.
  const edited = (a: string[]) => {
    const b = [...a];
    for (let e = 0; e < 24; e++) {
      const at = Math.floor(random() * b.length);
      const kind = random();
      if (kind < 0.7) b.splice(at, 1 + Math.floor(random() * 2), ...transcript(1 + Math.floor(random() * 2)));
      else if (kind < 0.85) b.splice(at, 0, pick());
      else b.splice(at, 1);
    }
    return b;
  };
  const pairsOf = Array.from({ length: 50 }, () => {
    const a = transcript(300);
    return [a, edited(a)] as const;
  });
  const unrelated = Array.from({ length: 10 }, () => [transcript(300), transcript(300)] as const);
  const time = async (run: (a: readonly string[], b: readonly string[]) => unknown, inputs: (readonly [string[], string[]])[], rounds: number) => {
    for (const [a, b] of inputs) run(a, b);
    const best = await bestOf3(() => {
      const started = performance.now();
      for (let r = 0; r < rounds; r++) for (const [a, b] of inputs) run(a, b);
      return { ms: performance.now() - started };
    });
    return best.ms / (rounds * inputs.length);
  };
  const body: string[][] = [];
  const perDiff: Record<string, number> = {};
  for (const [label, run] of [["word-diff.ts (Myers, prefix/suffix trimmed)", matchedPairs], ["diff.diffArrays → pairs", viaDiff]] as const) {
    const edit = await time(run, pairsOf as unknown as [string[], string[]][], 20);
    const rewrite = await time(run, unrelated as unknown as [string[], string[]][], 2);
    perDiff[label] = edit;
    body.push([label, `${fmt(edit * 1000)} µs`, `${(1000 / edit).toLocaleString("en-US", { maximumFractionDigits: 0 })}/s`, `${fmt(rewrite * 1000)} µs`]);
  }
  table(["diff of two 300-word transcripts", "edited (~24 edits)", "edited, per second", "unrelated (rewrite)"], body);

  // GET …/dictionary-suggestions diffs the recognizer's whole text against the user's: a 2-hour
  // recording is ~15,000 words. Once each (it runs on the request path, so this is event-loop time).
  const long: string[][] = [];
  for (const edits of [300, 1500, 5000]) {
    const a = transcript(15_000);
    const b = [...a];
    for (let e = 0; e < edits; e++) b.splice(Math.floor(random() * b.length), 1, pick());
    const once = (run: () => unknown) => {
      const started = performance.now();
      const result = run();
      return `${fmt(performance.now() - started, 1)} ms${result ? "" : " (gives up)"}`;
    };
    long.push([`${edits} substituted words`, once(() => matchedPairs(a, b)), once(() => viaDiff(a, b))]);
  }
  table(["15,000-word transcript (maxEdits 4000)", "word-diff.ts", "diff.diffArrays"], long);

  // Correctness: the pairs on the generated edits and on the project's own test inputs.
  const WORD = /[\p{L}\p{M}\p{N}]+(?:['’.\-][\p{L}\p{M}\p{N}]+)*/gu;
  const keys = (text: string) => [...text.matchAll(WORD)].map((m) => foldToken(m[0].replace(/’/g, "'")));
  const testText = readFileSync("tests/unit/suggest-from-edit.test.ts", "utf8");
  const testPairs = [...testText.matchAll(/suggest\(\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"/g)].map((m) => [keys(JSON.parse(`"${m[1]}"`)), keys(JSON.parse(`"${m[2]}"`))] as const);
  const compare = (inputs: readonly (readonly [string[], string[]])[]) => {
    let identical = 0;
    let sameLength = 0;
    for (const [a, b] of inputs) {
      const x = JSON.stringify(matchedPairs(a, b));
      const y = JSON.stringify(viaDiff(a, b));
      if (x === y) identical++;
      if (matchedPairs(a, b)?.length === viaDiff(a, b)?.length) sameLength++;
    }
    return `${identical}/${inputs.length} identical pairs, ${sameLength}/${inputs.length} same number matched`;
  };
  console.log(`generated edits: ${compare(pairsOf)}`);
  console.log(`tests/unit/suggest-from-edit.test.ts inputs: ${compare(testPairs)}`);
  const over = [transcript(300), transcript(300)] as const;
  console.log(`more than maxEdits (10) apart: word-diff.ts ${JSON.stringify(matchedPairs(over[0], over[1], 10))}, diff ${JSON.stringify(viaDiff(over[0], over[1], 10))}`);
  const size = installRow("diff");
  console.log(homeSize("lib/dictionary/word-diff.ts"));
  console.log();
  summary.push(["word diff", `word-diff.ts ${fmt(perDiff["word-diff.ts (Myers, prefix/suffix trimmed)"] * 1000)} µs/diff`, `diff ${fmt(perDiff["diff.diffArrays → pairs"] * 1000)} µs/diff`, size, compare(testPairs).split(",")[0] + " (tests)"]);
}

// ---------------------------------------------------------------------------------------------
console.log("## Audio sniffing: audio-format.ts vs file-type\n");
{
  const { detectAudioFormat, detectAudioFileFormat, FORMAT_SNIFF_BYTES } = await import("@/lib/transcription/audio/audio-format.ts");
  const { fileTypeFromBuffer, fileTypeFromFile } = await import("file-type");
  type Found = string | null;
  // file-type's answer, mapped onto the formats the service decodes (everything else: not audio).
  const AS_AUDIO: Record<string, string> = { wav: "wav", mp3: "mp3", m4a: "mp4", mp4: "mp4", mov: "mp4", "3gp": "mp4", m4b: "mp4", aac: "aac", ogg: "ogg", opus: "ogg", oga: "ogg", webm: "webm", mkv: "webm", flac: "flac", aif: "aiff", caf: "caf", amr: "amr" };
  const library = async (bytes: Uint8Array): Promise<[Found, string]> => {
    const found = await fileTypeFromBuffer(bytes);
    return [found ? (AS_AUDIO[found.ext] ?? null) : null, found?.ext ?? "—"];
  };
  const dir = await mkdtemp(path.join(tmpdir(), "vd-libs-"));
  const audioDir = process.env.AUDIO_DIR ?? path.resolve(import.meta.dirname, "../tests/fixtures");
  const files: [string, string, string][] = []; // name, path, the format it is
  for (const f of ["jfk.wav", "jfk.mp3"]) if (existsSync(path.join(audioDir, f))) files.push([`${f} (real)`, path.join(audioDir, f), path.extname(f).slice(1)]);
  const source = files[0]?.[1];
  const made: [string, string[]][] = [
    ["wav", ["-c:a", "pcm_s16le"]],
    ["mp3", ["-c:a", "libmp3lame", "-b:a", "64k"]],
    ["ogg", ["-c:a", "libopus", "-b:a", "24k"]],
    ["webm", ["-c:a", "libopus", "-b:a", "24k"]],
    ["m4a", ["-c:a", "aac", "-b:a", "64k"]],
    ["aac", ["-c:a", "aac", "-b:a", "64k", "-f", "adts"]],
    ["flac", ["-c:a", "flac"]],
    ["aiff", ["-c:a", "pcm_s16be"]],
    ["caf", ["-c:a", "pcm_s16le"]],
  ];
  if (source) {
    for (const [ext, args] of made) {
      const out = path.join(dir, `jfk.${ext}`);
      const r = spawnSync("ffmpeg", ["-v", "error", "-y", "-i", source, ...args, out]);
      if (r.status === 0) files.push([`${ext} (ffmpeg)`, out, ext === "m4a" ? "mp4" : ext]);
    }
    // An MP3 with 300 kB of cover art in its ID3 tag: longer than the sniffed bytes.
    const art = path.join(dir, "art.png");
    spawnSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=640x480", "-frames:v", "1", art]);
    const covered = path.join(dir, "cover.mp3");
    const r = spawnSync("ffmpeg", ["-v", "error", "-y", "-i", source, "-i", art, "-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame", "-c:v", "png", "-id3v2_version", "3", "-disposition:v", "attached_pic", covered]);
    if (r.status === 0) files.push(["mp3 with cover art (ffmpeg)", covered, "mp3"]);
  }
  // The inputs of tests/unit/audio-format.test.ts (what must be audio, and what must not), and two plain playlists.
  const { AUDIO_HEADS, bytes, ID3_WITHOUT_AUDIO, id3, LISTS, LOOKALIKES, MP3_THEN_HLS } = await import("@/tests/support/audio-heads.ts");
  const audio = AUDIO_HEADS.map(([name, head, format]) => [name, new Uint8Array(head), format] as const);
  const notAudio = [
    ...LOOKALIKES,
    ...ID3_WITHOUT_AUDIO,
    ...Object.entries(LISTS).flatMap(([name, text]): [string, Buffer][] => [[name, bytes(text)], [`ID3 + ${name}`, Buffer.concat([id3(), bytes(text)])]]),
    ["mp3 frame, then an HLS playlist", MP3_THEN_HLS] as [string, Buffer],
    ["m3u (plain)", bytes("/srv/voice/jfk.mp3\nhttp://127.0.0.1/b.mp3\n")] as [string, Buffer],
    ["pls", bytes("[playlist]\nFile1=/srv/voice/jfk.mp3\nNumberOfEntries=1\n")] as [string, Buffer],
  ].map(([name, head]) => [name, new Uint8Array(head)] as const);
  const rowsOut: string[][] = [];
  let agree = 0;
  let total = 0;
  const wrongs: string[] = [];
  const mark = (name: string, home: Found, [lib, ext]: [Found, string], want: Found) => {
    total++;
    if (home === lib) agree++;
    const wrong = [home === want ? "" : "home-made", lib === want ? "" : "file-type"].filter(Boolean).join(", ");
    if (lib !== want) wrongs.push(name);
    rowsOut.push([name, home ?? "—", `${lib ?? "—"}${ext === lib || ext === "—" ? "" : ` (${ext})`}`, wrong]);
  };
  for (const [name, file, want] of files) {
    const found = await fileTypeFromFile(file);
    mark(name, await detectAudioFileFormat(file), [found ? (AS_AUDIO[found.ext] ?? null) : null, found?.ext ?? "—"], want);
  }
  for (const [name, bytes, want] of audio) mark(`test: ${name}`, detectAudioFormat(bytes), await library(bytes), want);
  for (const [name, bytes] of notAudio) mark(`test, not audio: ${name}`, detectAudioFormat(bytes), await library(bytes), null);
  table(["input", "audio-format.ts", "file-type (its ext)", "wrong"], rowsOut);
  console.log(`same answer on ${agree}/${total} inputs; file-type wrong on: ${wrongs.join("; ")}`);

  // Throughput: the first 8 kB of each real or generated file, sniffed over and over.
  const heads = await Promise.all(files.map(async ([, f]) => new Uint8Array((await readFile(f)).subarray(0, FORMAT_SNIFF_BYTES))));
  const ROUNDS = 2000;
  for (const head of heads) detectAudioFormat(head);
  const { ms: homeMs } = await bestOf3(() => {
    const started = performance.now();
    for (let r = 0; r < ROUNDS; r++) for (const head of heads) detectAudioFormat(head);
    return { ms: performance.now() - started };
  });
  for (const head of heads) await fileTypeFromBuffer(head);
  const { ms: libMs } = await bestOf3(async () => {
    const started = performance.now();
    for (let r = 0; r < ROUNDS; r++) for (const head of heads) await fileTypeFromBuffer(head);
    return { ms: performance.now() - started };
  });
  const n = ROUNDS * heads.length;
  table(
    [`sniff the first 8 kB (${heads.length} files × ${ROUNDS})`, "sniffs/s", "per sniff"],
    [
      ["audio-format.ts detectAudioFormat (sync)", opsPerSec(n, homeMs), usPerOp(n, homeMs)],
      ["file-type fileTypeFromBuffer (async)", opsPerSec(n, libMs), usPerOp(n, libMs)],
    ],
  );
  await rm(dir, { recursive: true, force: true });
  const size = installRow("file-type");
  console.log(homeSize("lib/transcription/audio/audio-format.ts"));
  console.log();
  summary.push(["audio sniffing", `audio-format.ts ${usPerOp(n, homeMs)}/sniff`, `file-type ${usPerOp(n, libMs)}/sniff`, size, `${agree}/${total} same answers`]);
}

console.log("## Summary\n");
table(["pair", "home-made", "library", "library installed", "same results"], summary);
