// npm run bench:copy-lookup [-- --cost-model qwen3.5-2b]: what predicting copied words from the note
// (node-llama-cpp's InputLookupTokenPredictor: speculative decoding from the input) saves on a
// 1-minute note's clean-up (issue 67, item 5).
//
// The saving is two numbers multiplied, and each is measured where it is real:
// - How many of the clean-up's tokens the predictor guesses right: the predictor itself is run on
//   the real prompt's tokens (the clean-up's system prompt, note and task in the model's chat
//   format) against the clean text a good model writes (the note as bench:writer-local reads it),
//   token by token, as node-llama-cpp drives it. A model with random weights never copies, so this
//   part cannot come from the cost model; it comes from the tokenizer and the texts, which are real.
// - What a step costs when it checks 1, 2, 3 or 4 tokens at once: evaluated on the cost model (the
//   real model's shapes, Q4_K_M types and vocabulary), with the prompt in its context.
// For two kinds of recognized text: PocketSphinx's (lower case, no punctuation, fillers, one
// utterance per line) and Whisper's (punctuated, with fillers and a repetition). Bare PocketSphinx on
// jfk.wav gives the machine's speed.
import path from "node:path";
import { parseArgs } from "node:util";
import { COST_MODELS, costModelGguf } from "@/bench/cost-model-gguf.ts";
import { bareJfkSeconds } from "@/bench/speech.ts";
import { CLEAN_NOTE } from "@/bench/clean-note.ts";

const { values } = parseArgs({ options: { "cost-model": { type: "string" }, model: { type: "string" } } });
const costModel = values["cost-model"] ?? "qwen2.5-1.5b";
if (!values.model && !COST_MODELS[costModel]) throw new Error(`no cost model "${costModel}" (known: ${Object.keys(COST_MODELS).join(", ")})`);
const model = values.model ?? (await costModelGguf(costModel));

const { getLlama, LlamaLogLevel, InputLookupTokenPredictor } = await import("node-llama-cpp");
const { chatWrapperOf, localThreads } = await import("@/lib/writer/local/runtime.ts");
const { cleanUpPrompt } = await import("@/lib/writer/prompts/clean-up.ts");

/** The predictor's settings tried: the shortest run of written tokens looked up in the prompt, the most tokens predicted after it (1 and 3 are node-llama-cpp's defaults). */
type Setting = { pattern: number; predict: number };
const SETTINGS: Setting[] = [{ pattern: 1, predict: 3 }, { pattern: 2, predict: 3 }, { pattern: 3, predict: 3 }, { pattern: 2, predict: 2 }, { pattern: 3, predict: 6 }];
const MOST_PREDICTED = Math.max(...SETTINGS.map((s) => s.predict));
const FILLERS = ["um", "uh", "you know", "so um"];

/** PocketSphinx's text of the clean note: lower case, no punctuation, a filler now and then, an utterance per sentence. */
function sphinxText(clean: string): string {
  const sentences = clean.split(/(?<=[.!?:])\s+/);
  return sentences
    .map((sentence, i) => {
      const words = sentence.toLowerCase().replace(/[^\p{L}\p{N}'\s-]/gu, "").split(/\s+/);
      if (i % 2 === 0) words.splice(Math.min(3, words.length), 0, FILLERS[i % FILLERS.length]);
      return words.join(" ");
    })
    .join("\n");
}

/** Whisper's text: punctuated and cased, with fillers and one repeated phrase. */
function whisperText(clean: string): string {
  const sentences = clean.split(/(?<=[.!?:])\s+/);
  return sentences
    .map((sentence, i) => {
      if (i === 1) return sentence.replace(/^(\S+ \S+)/, "$1, $1");
      if (i % 3 === 0) return `Um, ${sentence[0].toLowerCase()}${sentence.slice(1)}`;
      return sentence;
    })
    .join(" ");
}

const llama = await getLlama({ gpu: false, build: "never", progressLogs: false, logLevel: LlamaLogLevel.error, maxThreads: localThreads() });
const loaded = await llama.loadModel({ modelPath: model, useMmap: false });
const wrapper = await chatWrapperOf(loaded);

function promptTokens(recognized: string) {
  const { system, prompt } = cleanUpPrompt({ text: recognized, spellings: [] });
  const history = [{ type: "system" as const, text: system }, { type: "user" as const, text: prompt.note }, { type: "user" as const, text: prompt.task }, { type: "model" as const, response: [] }];
  const { contextText } = wrapper.generateContextState({ chatHistory: history });
  return contextText.tokenize(loaded.tokenizer);
}

/**
 * Runs the predictor as node-llama-cpp does while the model writes `answer`: before each step it
 * predicts; the step checks the last token and the predictions at once and keeps the predictions
 * up to the first wrong one, plus the model's own next token. Returns each step's batch size.
 */
function lookupSteps(prompt: number[], answer: number[], { pattern, predict }: Setting): number[] {
  const predictor = new InputLookupTokenPredictor({ patternLength: { min: pattern }, predictionLength: { max: predict } });
  predictor.updateInputTokens(prompt as never);
  predictor.reset({ stateTokens: prompt as never });
  const batches: number[] = [];
  for (let i = 0; i < answer.length; ) {
    const predicted = predictor.predictTokens() as number[];
    let right = 0;
    while (right < predicted.length && i + right < answer.length && predicted[right] === answer[i + right]) right += 1;
    batches.push(1 + predicted.length);
    const kept = answer.slice(i, Math.min(answer.length, i + right + 1));
    predictor.pushTokens(kept as never);
    i += kept.length;
  }
  return batches;
}

/** The median time of one step checking `size` tokens, with `prompt` in the context. */
async function stepMs(prompt: number[], sizes: number[], runs = 9): Promise<Map<number, number>> {
  const context = await loaded.createContext({ contextSize: 4096, threads: localThreads(), sequences: 1 });
  const sequence = context.getSequence();
  await sequence.evaluateWithoutGeneratingNewTokens(prompt as never);
  const filler = prompt.slice(-40);
  const result = new Map<number, number>();
  for (const size of sizes) {
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      const start = sequence.nextTokenIndex;
      const t0 = performance.now();
      // As a step of speculative decoding does: the next token sampled after each checked one.
      await sequence.controlledEvaluate(filler.slice(run, run + size).map((token) => [token, { generateNext: { token: true } }]) as never);
      times.push(performance.now() - t0);
      await sequence.eraseContextTokenRanges([{ start, end: sequence.nextTokenIndex }]);
    }
    times.sort((a, b) => a - b);
    result.set(size, times[Math.floor(runs / 2)]);
  }
  await context.dispose();
  return result;
}

const bareBefore = await bareJfkSeconds();
const answer = loaded.tokenize(CLEAN_NOTE) as number[];
const sizes = Array.from({ length: MOST_PREDICTED + 1 }, (_, i) => i + 1);
const costs = await stepMs(promptTokens(sphinxText(CLEAN_NOTE)) as number[], sizes);
const bareAfter = await bareJfkSeconds();

console.log(`model: ${path.basename(model)}${values.model ? "" : ` (the cost model of ${costModel})`}, ${localThreads()} thread(s); the clean text: ${CLEAN_NOTE.split(/\s+/).length} words, ${answer.length} tokens`);
console.log(`one step checking n tokens at once: ${sizes.map((n) => `${n}: ${costs.get(n)!.toFixed(0)} ms`).join(", ")}`);
console.log("recognized text  predictor (pattern/predicted)  steps  predicted right/checked  clean-up alone  with lookup  saved");
for (const [kind, text] of [["PocketSphinx", sphinxText(CLEAN_NOTE)], ["Whisper", whisperText(CLEAN_NOTE)]] as const) {
  const prompt = promptTokens(text) as number[];
  for (const setting of SETTINGS) {
    const batches = lookupSteps(prompt, answer, setting);
    const checked = batches.reduce((n, b) => n + b - 1, 0);
    const right = answer.length - batches.length;
    const alone = answer.length * costs.get(1)!;
    const lookup = batches.reduce((ms, b) => ms + costs.get(b)!, 0);
    console.log(
      `${kind.padEnd(17)}${`≥ ${setting.pattern} / ≤ ${setting.predict}`.padStart(29)}${String(batches.length).padStart(7)}${`${right}/${checked}`.padStart(25)}${`${(alone / 1000).toFixed(1)} s`.padStart(16)}${`${(lookup / 1000).toFixed(1)} s`.padStart(13)}${`${Math.round((1 - lookup / alone) * 100)} %`.padStart(7)}`,
    );
  }
}
console.log(`bare PocketSphinx on jfk.wav: ${((bareBefore + bareAfter) / 2).toFixed(2)} s (before ${bareBefore.toFixed(2)}, after ${bareAfter.toFixed(2)})`);
await loaded.dispose();
process.exit(0);
