// Long recordings for the benchmarks: the shared real speech (JFK) with a 1.5 s pause after it,
// looped to any length, as 16 kHz mono WAV; and the word error rate of a transcript.
import { execFile, spawn } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);
export const JFK = path.resolve(import.meta.dirname, "../tests/fixtures/jfk.wav");

/** `seconds` of looped speech written into `dir`; returns the file's path. */
export async function loopedSpeech(dir: string, seconds: number): Promise<string> {
  const out = path.join(dir, `speech-${seconds}.wav`);
  await exec("ffmpeg", [
    "-nostdin", "-v", "error", "-y", "-i", JFK, "-f", "lavfi", "-t", "1.5", "-i", "anullsrc=r=16000:cl=mono",
    "-filter_complex", "[0:a]aresample=16000,aformat=channel_layouts=mono[s];[s][1:a]concat=n=2:v=0:a=1,aloop=loop=-1:size=2e9[out]",
    "-map", "[out]", "-t", String(seconds), "-ac", "1", "-ar", "16000", out,
  ]);
  return out;
}

/** Word error rate: word-level edit distance over the reference's length. */
export function wer(hypothesis: string, ref: string): number {
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z' ]+/g, " ").split(/\s+/).filter(Boolean);
  const h = norm(hypothesis);
  const r = norm(ref);
  let prev = Array.from({ length: h.length + 1 }, (_, j) => j);
  for (let i = 1; i <= r.length; i++) {
    const row = [i];
    for (let j = 1; j <= h.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (r[i - 1] === h[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[h.length] / r.length;
}

/** Bare PocketSphinx (Debian's pocketsphinx_continuous, en-us) on a 16 kHz WAV: its text. */
export function barePocketsphinx(wav: string): Promise<string> {
  const model = "/usr/share/pocketsphinx/model/en-us";
  return new Promise((resolve, reject) => {
    const child = spawn("pocketsphinx_continuous", [
      "-infile", wav, "-hmm", `${model}/en-us`, "-lm", `${model}/en-us.lm.bin`, "-dict", `${model}/cmudict-en-us.dict`, "-samprate", "16000", "-logfn", "/dev/null",
    ]);
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(text.split("\n").filter(Boolean).join(" ")) : reject(new Error(`pocketsphinx exited with ${code}`))));
  });
}

/**
 * The yardstick of speed on this machine: seconds bare PocketSphinx takes on jfk.wav (11 s of
 * speech), the median of `runs`. Machines here differ 2× in speed, so times are reported as a
 * ratio to this, measured in the same run.
 */
export async function bareJfkSeconds(runs = 3): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await barePocketsphinx(JFK);
    times.push((performance.now() - started) / 1000);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

/**
 * Where a recording's speech is (Silero VAD over the file the fake microphone or phone plays), for
 * the captions' delay: seconds from the end of the speech an update covers to its arrival.
 */
export async function speechSpans(wav: string): Promise<{ start: number; end: number }[]> {
  const { measureWav } = await import("@/lib/transcription/audio/decode-audio.ts");
  const { analyzeSpeech } = await import("@/lib/transcription/audio/vad.ts");
  return (await analyzeSpeech(wav, (await measureWav(wav)).durationSec)).spans;
}

/**
 * The captions' delays, one per phrase: for each stretch of speech (`spans`) that ended before
 * Stop (`stopAt`, seconds into the recording), seconds from its end until an update (`at`: seconds
 * into the recording it came; `reach`: how far into the recording the captions then reached)
 * reached it; a phrase no update reached before Stop counts as late as Stop. The recognizer ends
 * a phrase's last word up to a few tenths of a second before the VAD's span ends (a word's soft
 * tail), so reaching within NEW_WORD_SECONDS of the end is reaching it.
 *
 * Counted per update instead, a recognized piece, which ends in the pause after its words, was an
 * update that reached past the stream's last word by that tail and by silence, though it showed
 * no new word: two such were the worst of a 1-minute bench:app-record run, 4.7 and 4.5 s late.
 */
export function captionDelays(updates: { at: number; reach: number }[], spans: { start: number; end: number }[], stopAt: number): number[] {
  return spans
    .filter((span) => span.end <= stopAt - STOP_MARGIN_SECONDS)
    .map((span) => (updates.find((u) => u.reach >= span.end - NEW_WORD_SECONDS)?.at ?? stopAt) - span.end);
}
/**
 * For each phrase said before Stop (and at least a second long), seconds from its first second
 * said to the captions reaching into it: the words shown while the person speaks.
 */
export function firstWordsDelays(updates: { at: number; reach: number }[], spans: { start: number; end: number }[], stopAt: number): number[] {
  return spans
    .filter((span) => span.end - span.start >= FIRST_WORDS_SECONDS && span.start + FIRST_WORDS_SECONDS <= stopAt - STOP_MARGIN_SECONDS)
    .map((span) => {
      const said = span.start + FIRST_WORDS_SECONDS;
      return (updates.find((u) => u.reach >= said - NEW_WORD_SECONDS && u.at >= span.start)?.at ?? stopAt) - said;
    });
}
/** A phrase's first words: its first second. */
const FIRST_WORDS_SECONDS = 1;

/** The words of `seconds` of looped jfk.wav (loopedSpeech): a loop is 11 s of speech and 1.5 s of pause; the last one's by its share of the speech. */
export function loopedReference(seconds: number): string {
  const words = JFK_REFERENCE.split(" ");
  const loops = Math.floor(seconds / JFK_LOOP_SECONDS);
  const rest = Math.min(1, (seconds - loops * JFK_LOOP_SECONDS) / JFK_SPEECH_SECONDS);
  return [...Array.from({ length: loops }, () => JFK_REFERENCE), words.slice(0, Math.round(words.length * rest)).join(" ")].filter(Boolean).join(" ");
}
export const JFK_REFERENCE = "and so my fellow americans ask not what your country can do for you ask what you can do for your country";
const JFK_SPEECH_SECONDS = 11;
const JFK_LOOP_SECONDS = 12.5;

/** A word's tail the recognizer leaves out of it, at most. */
const NEW_WORD_SECONDS = 0.5;
/** The phrases that end this close to Stop are Stop's to show (Stop → text), not the captions'. */
const STOP_MARGIN_SECONDS = 1;
