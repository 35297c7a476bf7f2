import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compileDictionary } from "@/lib/dictionary/matcher.ts";
import { chunkTranscript } from "@/lib/clean-up/chunk-text.ts";
import type { Segment, Word } from "@/lib/segment.ts";
import { assignWords, flattenWords } from "@/lib/notes/words.ts";
import { correctRecognition, correctWords } from "@/lib/transcription/recognition/correct-recognition.ts";
import { withWords } from "@/lib/transcription/recognizers/openai.ts";
import { parseTimedOutput } from "@/lib/transcription/recognizers/pocketsphinx.ts";
import { groupWords, joinWordPieces } from "@/lib/transcription/recognizers/whisper.ts";
import { CUE_LINE_MAX, cueLines, formatOpenAiResult, formatResult, subtitleCues, toSrt, toVtt } from "@/lib/transcription/upload/format-result.ts";
import { OpenAiTranscriptionFields, TranscribeFields, wantsWords } from "@/lib/transcription/schemas.ts";
import { type TranscriptionResult } from "@/lib/notes/schemas.ts";

const w = (word: string, start: number, end: number): Word => ({ word, start, end });

// What pocketsphinx_continuous -time yes prints for the JFK recording (abridged, real output).
const POCKETSPHINX_OUTPUT = `and then our my arm arrow
<s> 0.000 0.040 0.998900
and 0.050 0.160 0.032758
then 0.170 0.670 0.213530
our(3) 0.680 0.980 0.207841
my 0.990 1.280 0.942323
</s> 2.310 2.440 1.000000
and not
<s> 3.170 3.280 1.000300
and(2) 3.290 3.730 0.985603
<sil> 3.740 3.980 0.828680
[NOISE] 3.980 3.990 0.828680
not 3.990 4.300 0.817730
</s> 4.310 4.760 1.000000
`;

describe("pocketsphinx word lines", () => {
  test("become each segment's words: fillers dropped, pronunciation variants named by their word", () => {
    const segments = parseTimedOutput(POCKETSPHINX_OUTPUT);
    assert.deepEqual(segments, [
      { start: 0.05, end: 1.28, text: "and then our my", words: [w("and", 0.05, 0.16), w("then", 0.17, 0.67), w("our", 0.68, 0.98), w("my", 0.99, 1.28)] },
      { start: 3.29, end: 4.3, text: "and not", words: [w("and", 3.29, 3.73), w("not", 3.99, 4.3)] },
    ]);
  });
});

describe("whisper word pieces", () => {
  test("pieces are words; punctuation and contractions without a leading space join the word before", () => {
    const words = joinWordPieces([
      { text: " And", start: 0, end: 0.3 },
      { text: " so", start: 0.3, end: 0.5 },
      { text: ",", start: 0.5, end: 0.55 },
      { text: " don", start: 0.6, end: 0.8 },
      { text: "'t", start: 0.8, end: 0.9 },
      { text: "  ", start: 0.9, end: 0.95 },
      { text: " ask.", start: 1, end: 1.4 },
    ]);
    assert.deepEqual(words, [w("And", 0, 0.3), w("so,", 0.3, 0.55), w("don't", 0.6, 0.9), w("ask.", 1, 1.4)]);
  });

  test("times are made monotonic when whisper's token timestamps step back", () => {
    const words = joinWordPieces([
      { text: "one", start: 1, end: 2 },
      { text: "two", start: 1.5, end: 1.4 },
      { text: "three", start: 2.5, end: 3 },
    ]);
    for (const [i, word] of words.entries()) {
      assert.ok(word.end >= word.start, `${word.word} ends after it starts`);
      if (i) assert.ok(word.start >= words[i - 1].end, `${word.word} starts after the word before ends`);
    }
    assert.deepEqual(words.map((x) => x.word), ["one", "two", "three"]);
  });

  test("words regroup into segments at sentence ends and pauses, each spanning its words", () => {
    const segments = groupWords([w("Hello", 0, 0.4), w("there.", 0.4, 0.8), w("How", 1, 1.2), w("are", 1.2, 1.4), w("you", 3, 3.3), w("today?", 3.3, 3.8)]);
    assert.deepEqual(
      segments.map((s) => [s.start, s.end, s.text]),
      [[0, 0.8, "Hello there."], [1, 1.4, "How are"], [3, 3.8, "you today?"]],
    );
    assert.equal(segments[2].words?.length, 2);
  });

  test("a long run without punctuation or pauses is cut at 40 words", () => {
    const words = Array.from({ length: 100 }, (_, i) => w(`w${i}`, i * 0.3, i * 0.3 + 0.25));
    const segments = groupWords(words);
    assert.deepEqual(segments.map((s) => s.words?.length), [40, 40, 20]);
    assert.deepEqual(flattenWords(segments), words);
  });
});

describe("the dictionary over timed words", () => {
  const dictionary = compileDictionary([
    { misspelling: "cooper netties", correctSpelling: "Kubernetes" },
    { misspelling: "voice draft", correctSpelling: "Voicedraft" },
    { misspelling: "k8s", correctSpelling: "Kube Netes" },
  ]);

  test("a replaced phrase becomes one word spanning the words it replaced; the others keep their times", () => {
    const words = [w("we", 0, 0.2), w("run", 0.2, 0.5), w("cooper", 0.6, 0.9), w("netties,", 0.9, 1.4), w("daily", 1.5, 1.9)];
    assert.deepEqual(correctWords(words, dictionary), [
      w("we", 0, 0.2),
      w("run", 0.2, 0.5),
      w("Kubernetes,", 0.6, 1.4),
      w("daily", 1.5, 1.9),
    ]);
  });

  test("several replacements, one word long and multi-word spellings included", () => {
    const words = [w("voice", 0, 0.3), w("draft", 0.3, 0.6), w("on", 0.7, 0.8), w("k8s", 0.9, 1.2)];
    assert.deepEqual(correctWords(words, dictionary), [w("Voicedraft", 0, 0.6), w("on", 0.7, 0.8), w("Kube Netes", 0.9, 1.2)]);
  });

  test("two matches inside one word stay one word", () => {
    const inWord = compileDictionary([
      { misspelling: "don", correctSpelling: "DON" },
      { misspelling: "t", correctSpelling: "T" },
    ]);
    assert.deepEqual(correctWords([w("don't", 1, 2), w("go", 2, 3)], inWord), [w("DON'T", 1, 2), w("go", 2, 3)]);
  });

  test("words without a match are returned as they were", () => {
    const words = [w("nothing", 0, 1), w("here", 1, 2)];
    assert.equal(correctWords(words, dictionary), words);
  });

  test("correctRecognition corrects text, segment text and segment words alike", () => {
    const corrected = correctRecognition(
      {
        text: "we run cooper netties",
        language: "en",
        engine: "pocketsphinx",
        segments: [{ start: 0, end: 1.4, text: "we run cooper netties", words: [w("we", 0, 0.2), w("run", 0.2, 0.5), w("cooper", 0.6, 0.9), w("netties", 0.9, 1.4)] }],
      },
      dictionary,
    );
    assert.equal(corrected.text, "we run Kubernetes");
    assert.equal(corrected.replacements, 1);
    assert.deepEqual(corrected.segments[0], {
      start: 0,
      end: 1.4,
      text: "we run Kubernetes",
      words: [w("we", 0, 0.2), w("run", 0.2, 0.5), w("Kubernetes", 0.6, 1.4)],
    });
  });
});

describe("an OpenAI-compatible server's words", () => {
  test("go to the segment their middle falls in; bad entries are dropped", () => {
    const segments = withWords(
      [
        { start: 0, end: 2, text: "Hello there." },
        { start: 2, end: 4, text: "General Kenobi." },
      ],
      [
        { word: "Hello", start: 0.1, end: 0.5 },
        { word: "there", start: 0.6, end: 2.05 },
        { word: "General", start: 2.1, end: 2.6 },
        { word: 7, start: 1, end: 2 },
        { word: "Kenobi", start: 2.7, end: 3.5 },
        { word: "nan", start: Number.NaN, end: 3 },
      ],
    );
    assert.deepEqual(segments.map((s) => s.words?.map((x) => x.word)), [["Hello", "there"], ["General", "Kenobi"]]);
  });

  test("words without segments make one segment; no words leaves the segments alone", () => {
    const [only] = withWords([], [{ word: "hi", start: 1, end: 1.5 }, { word: "you", start: 1.6, end: 2 }]);
    assert.deepEqual(only, { start: 1, end: 2, text: "hi you", words: [w("hi", 1, 1.5), w("you", 1.6, 2)] });
    const plain = [{ start: 0, end: 1, text: "x" }];
    assert.equal(withWords(plain, undefined), plain);
  });

  test("assignWords puts every word in exactly one segment, in order", () => {
    const words = Array.from({ length: 30 }, (_, i) => w(`w${i}`, i / 3, i / 3 + 0.3));
    const segments = assignWords([{ start: 0, end: 3, text: "a" }, { start: 3, end: 6, text: "b" }, { start: 6.5, end: 10, text: "c" }], words);
    assert.deepEqual(flattenWords(segments), words);
    for (const s of segments) for (const x of s.words!) assert.ok((x.start + x.end) / 2 <= s.end + 0.5);
  });
});

function result(segments: Segment[], text = segments.map((s) => s.text).join(" ")): TranscriptionResult {
  const presented = segments.map(({ start, end, text: t }) => ({ start, end, text: t }));
  const words = flattenWords(segments);
  return {
    id: "t1",
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    edited_at: null,
    text_improved_at: null,
    text_improving: false,
    text_improved_undoable: false,
    title: null,
    tags: [],
    pinned: false,
    recorded_at: "2026-01-01T00:00:00.000Z",
    audio: null,
    audio_pending: false,
    insights: null,
    insights_pending: false,
    text,
    raw_text: text,
    language: "en",
    duration: 60,
    engine: "whisper",
    dictionary_replacements: 0,
    segments: presented,
    ...(words.length && { words }),
    recording: null,
  };
}

const LONG =
  "So this is the first sentence of a long recording that keeps going well past a single line of subtitles. " +
  "Short one. And here is another sentence that is long enough to need two lines of text on the screen at least!";

describe("srt and vtt cues", () => {
  test("no line is longer than 42 characters, a cue has at most two lines, and every sentence end closes a cue", () => {
    const cues = subtitleCues(result([{ start: 0, end: 20, text: LONG }]));
    assert.ok(cues.length >= 4, `${cues.length} cues`);
    for (const cue of cues) {
      assert.ok(cue.lines.length >= 1 && cue.lines.length <= 2, JSON.stringify(cue.lines));
      for (const line of cue.lines) assert.ok([...line].length <= CUE_LINE_MAX, `${line.length}: ${line}`);
      const text = cue.lines.join(" ");
      // A sentence end can only be the last thing in a cue.
      assert.doesNotMatch(text.slice(0, -1), /[.!?] /, text);
    }
    assert.ok(cues.some((c) => c.lines.join(" ") === "Short one."), "a short sentence is its own cue");
    assert.equal(cues.map((c) => c.lines.join(" ")).join(" "), LONG, "no word lost or repeated");
  });

  test("without words, times are shared out in the segment by length, in order", () => {
    const cues = subtitleCues(result([{ start: 10, end: 30, text: LONG }]));
    assert.equal(cues[0].start, 10);
    assert.equal(cues.at(-1)!.end, 30);
    for (const [i, cue] of cues.entries()) {
      assert.ok(cue.end > cue.start);
      if (i) assert.ok(cue.start >= cues[i - 1].end);
    }
  });

  test("with words, a cue runs from its first word's start to its last word's end", () => {
    const words = [w("Hello", 1, 1.5), w("world.", 1.6, 2.2), w("Again", 5, 5.4), w("here.", 5.5, 6)];
    const cues = subtitleCues(result([{ start: 0.5, end: 7, text: "Hello world. Again here.", words }]));
    assert.deepEqual(cues, [
      { start: 1, end: 2.2, lines: ["Hello world."] },
      { start: 5, end: 6, lines: ["Again here."] },
    ]);
  });

  test("a dictionary phrase of two words in one timed word still times its cue", () => {
    const words = [w("on", 0, 0.5), w("Kube Netes", 0.5, 2)];
    const cues = subtitleCues(result([{ start: 0, end: 3, text: "on Kube Netes", words }]));
    assert.deepEqual(cues, [{ start: 0, end: 2, lines: ["on Kube Netes"] }]);
  });

  test("two lines are balanced; a word longer than a line is cut", () => {
    assert.deepEqual(cueLines("aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj".split(" ")), [
      "aaaa bbbb cccc dddd eeee",
      "ffff gggg hhhh iiii jjjj",
    ]);
    assert.equal(cueLines(["x".repeat(30), "y".repeat(30), "z".repeat(30)]), null);
    const cues = subtitleCues(result([{ start: 0, end: 10, text: `see ${"u".repeat(100)} now` }]));
    for (const cue of cues) for (const line of cue.lines) assert.ok(line.length <= CUE_LINE_MAX);
  });

  test("srt and vtt print the cues with their lines", () => {
    const r = result([{ start: 0, end: 4, text: "Hello world. Again here.", words: [w("Hello", 0, 0.5), w("world.", 0.5, 1), w("Again", 2, 2.5), w("here.", 2.5, 3.25)] }]);
    assert.equal(toSrt(r), "1\n00:00:00,000 --> 00:00:01,000\nHello world.\n\n2\n00:00:02,000 --> 00:00:03,250\nAgain here.\n");
    assert.equal(toVtt(r), "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nHello world.\n\n00:00:02.000 --> 00:00:03.250\nAgain here.\n");
  });

  test("a result without segments spans the recording", () => {
    const cues = subtitleCues({ text: "Just text.", duration: 5, segments: [] });
    assert.deepEqual(cues, [{ start: 0, end: 5, lines: ["Just text."] }]);
  });
});

describe("words in the answers", () => {
  const r = result([{ start: 0, end: 1, text: "hi there", words: [w("hi", 0, 0.4), w("there", 0.5, 1)] }]);

  test("verbose_json has top-level words only when asked; segments never carry them; json has neither", () => {
    const asked = formatResult(r, "verbose_json", { words: true }) as { json: Record<string, unknown> };
    assert.deepEqual(asked.json.words, [w("hi", 0, 0.4), w("there", 0.5, 1)]);
    assert.deepEqual(asked.json.segments, [{ start: 0, end: 1, text: "hi there" }]);
    const plain = formatResult(r, "verbose_json") as { json: Record<string, unknown> };
    assert.equal("words" in plain.json, false);
    const json = formatResult(r, "json") as { json: Record<string, unknown> };
    assert.equal("words" in json.json || "segments" in json.json, false);
  });

  test("OpenAI's verbose_json shape gets words when asked", () => {
    const asked = formatOpenAiResult(r, "verbose_json", { words: true }) as { json: Record<string, unknown> };
    assert.deepEqual(asked.json.words, [w("hi", 0, 0.4), w("there", 0.5, 1)]);
    assert.equal("words" in (formatOpenAiResult(r, "verbose_json") as { json: object }).json, false);
  });
});

describe("the timestamp_granularities fields", () => {
  test("OpenAI's repeated field (joined by the upload) and the plain comma-separated one", () => {
    const repeated = TranscribeFields.parse({ response_format: "verbose_json", "timestamp_granularities[]": "word,segment" });
    assert.deepEqual(repeated["timestamp_granularities[]"], ["word", "segment"]);
    assert.equal(wantsWords(repeated), true);
    const plain = OpenAiTranscriptionFields.parse({ model: "whisper-1", response_format: "verbose_json", timestamp_granularities: "segment" });
    assert.equal(wantsWords(plain), false);
    assert.equal(wantsWords(TranscribeFields.parse({})), false);
  });

  test("only with verbose_json, and only word or segment", () => {
    const json = TranscribeFields.safeParse({ "timestamp_granularities[]": "word" });
    assert.equal(json.success, false);
    assert.match(JSON.stringify(json.error?.issues), /needs response_format verbose_json/);
    const openai = OpenAiTranscriptionFields.safeParse({ model: "m", response_format: "srt", timestamp_granularities: "word" });
    assert.equal(openai.success, false);
    const bad = TranscribeFields.safeParse({ response_format: "verbose_json", "timestamp_granularities[]": "word,letter" });
    assert.equal(bad.success, false);
    assert.match(JSON.stringify(bad.error?.issues), /must be word or segment/);
  });
});

describe("the optimizer with word timings", () => {
  test("chunks carry only the text: words neither change nor bloat them", () => {
    const segments: Segment[] = [
      { start: 0, end: 1, text: "first part here" },
      { start: 3, end: 4, text: "second part" },
    ];
    const withTimings = segments.map((s) => ({ ...s, words: s.text.split(" ").map((x, i) => w(x, s.start + i * 0.1, s.start + i * 0.1 + 0.1)) }));
    const plain = chunkTranscript("", segments, 300);
    assert.deepEqual(chunkTranscript("", withTimings, 300), plain);
    assert.doesNotMatch(JSON.stringify(plain), /start|end|0\.1/);
  });
});
