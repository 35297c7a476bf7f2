import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import type { ChatHistoryItem, ChatWrapper, Llama, LlamaChat, LlamaContext, LlamaContextSequence, LlamaGrammar, LlamaModel } from "node-llama-cpp";
import { brandOf } from "@/lib/brand.ts";
import { env } from "@/lib/env.ts";
import { log } from "@/lib/log.ts";
import { ggufHeaderProblem } from "@/lib/writer/local/gguf-header.ts";
import { Turns } from "@/lib/writer/local/turns.ts";

// The model on this machine, through node-llama-cpp: one per process (on globalThis, since Next
// bundles lib/ more than once into one process, lib/brand.ts), loaded on first use and unloaded
// after WRITER_LOCAL_IDLE_MINUTES. node-llama-cpp is imported here on first use only, so a server
// that never writes with it never loads it. One generation at a time (a second waits its turn);
// the context is capped at 4096 tokens and its threads at one fewer than the cores. It imports
// nothing of the rest of the app, so the launcher (which only downloads the model) stays small.
//
// A note is read once for all its tasks: every task's prompt starts with the same system prompt and
// note (lib/writer/prompts/note.ts), and all generations run on one kept sequence through one
// LlamaChat, which evaluates only the tokens after the part the sequence already holds
// (adaptStateToTokens). The sequence holds the last note until another note's task replaces it or
// the model is unloaded: posts made a minute after the insights still find the note read.
// No token predictor on it: guessing the clean-up's copied words from the note costs more than it
// saves on the one or two threads of a small machine (bench:copy-lookup, docs/benchmarks.md).

export const CONTEXT_TOKENS = 4096;

const BRAND = brandOf("LocalModelUnusable");

/** The file cannot be used as a model (not a GGUF, truncated, an architecture llama.cpp lacks). */
export class LocalModelUnusable extends Error {
  name = "LocalModelUnusable";
  readonly [BRAND] = true;
  static isInstance = (err: unknown): err is LocalModelUnusable => typeof err === "object" && err !== null && (err as Record<symbol, unknown>)[BRAND] === true;
}

type Loaded = {
  key: string;
  path: string;
  model: LlamaModel;
  context: LlamaContext;
  /** The one sequence every generation runs on, and the chat on it (made on first use). */
  chat?: { sequence: LlamaContextSequence; chat: LlamaChat };
  grammars: Map<string, Promise<LlamaGrammar>>;
  loadedAt: Date;
  loadMs: number;
};
type State = {
  llama?: Promise<Llama>;
  loaded?: Promise<Loaded>;
  /** The model in memory, once loaded. */
  current?: Loaded;
  turns: Turns;
  idleTimer?: NodeJS.Timeout;
  lastUsedAt?: Date;
  failure?: { key: string; reason: string };
  loads: number;
  usage: LocalModelUsage;
};

/** What the model did in this process: generations, their prompts' tokens, those it evaluated (the rest it held already), and those it wrote. */
export type LocalModelUsage = { generations: number; promptTokens: number; evaluatedTokens: number; outputTokens: number };
const kept = globalThis as unknown as { voicedraftLocalWriter?: State };
const state: State = (kept.voicedraftLocalWriter ??= { turns: new Turns(), loads: 0, usage: { generations: 0, promptTokens: 0, evaluatedTokens: 0, outputTokens: 0 } });

export const localThreads = (): number => Math.max(1, availableParallelism() - 1);

/** One file, as it is now: a replaced file is a new model (and a new chance to load). */
function fileKey(file: string): string {
  try {
    const s = statSync(file);
    return `${file} ${s.size} ${s.mtimeMs}`;
  } catch {
    return `${file} missing`;
  }
}

/** Why this file could not be loaded the last time it was tried, or null. */
export function localModelFailure(file: string): string | null {
  return state.failure?.key === fileKey(file) ? state.failure.reason : null;
}

async function llamaRuntime(): Promise<Llama> {
  state.llama ??= import("node-llama-cpp").then(({ getLlama, LlamaLogLevel }) =>
    getLlama({ gpu: false, build: "never", progressLogs: false, logLevel: LlamaLogLevel.error, maxThreads: localThreads() }),
  );
  state.llama.catch(() => (state.llama = undefined));
  return state.llama;
}

async function load(file: string): Promise<Loaded> {
  const key = fileKey(file);
  const current = await state.loaded?.catch(() => undefined);
  if (current?.key === key) return current;
  if (current) await unloadLocalModel();
  const failed = localModelFailure(file);
  if (failed) throw new LocalModelUnusable(failed);
  const loading = (async () => {
    const bad = await ggufHeaderProblem(file);
    if (bad) throw new LocalModelUnusable(`${path.basename(file)} cannot be used as a model: ${bad}`);
    try {
      const llama = await llamaRuntime();
      const started = performance.now();
      const { model, context } = await withinLoadTimeout(file, (signal) => loadAndCreateContext(llama, file, signal));
      const loadMs = Math.round(performance.now() - started);
      state.loads += 1;
      state.current = { key, path: file, model, context, grammars: new Map(), loadedAt: new Date(), loadMs };
      log.info("the writing model on this machine is loaded", { model: path.basename(file), load_ms: loadMs });
      return state.current;
    } catch (err) {
      if (err instanceof LoadTimeout) throw new LocalModelUnusable(`${path.basename(file)} could not be loaded: ${err.message}`);
      // llama.cpp's words may hold the file's path: the log has them, the status (shown to anyone) does not.
      log.warn("llama.cpp could not load the writing model", { model: path.basename(file), reason: (err as Error).message ?? String(err) });
      throw new LocalModelUnusable(`${path.basename(file)} could not be loaded as a model: the file is damaged, or a kind of model this server cannot run`);
    }
  })();
  state.loaded = loading;
  try {
    return await loading;
  } catch (err) {
    state.loaded = undefined;
    state.failure = { key, reason: (err as Error).message };
    log.warn("the writing model on this machine cannot be used; the offline rules write", { model: path.basename(file), reason: (err as Error).message });
    throw err;
  }
}

class LoadTimeout extends Error {}

async function loadAndCreateContext(llama: Llama, file: string, loadSignal: AbortSignal): Promise<{ model: LlamaModel; context: LlamaContext }> {
  // Read, not mapped: llama.cpp repacks most weights for the CPU into memory of its own, and the
  // mapped file's pages of those weights stayed resident beside the copy (Qwen2.5-1.5B Q4_K_M: 1.93
  // GB RSS mapped, 1.35 GB read, the same speed; docs/benchmarks.md, issue 67). node-llama-cpp
  // 3.21.1 has no switch for the repack itself (llama.cpp's use_extra_bufts).
  const model = await llama.loadModel({ modelPath: file, loadSignal, useMmap: false });
  try {
    loadSignal.throwIfAborted();
    const context = await model.createContext({ contextSize: Math.min(CONTEXT_TOKENS, model.trainContextSize), threads: localThreads(), sequences: 1, createSignal: loadSignal });
    return { model, context };
  } catch (err) {
    await model.dispose();
    throw err;
  }
}

/**
 * Gives up on a load after WRITER_LOCAL_LOAD_TIMEOUT_SECONDS: the signal asks node-llama-cpp to
 * stop, and should it finish anyway, what it loaded is freed, not kept.
 */
async function withinLoadTimeout<T extends { model: LlamaModel }>(file: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const seconds = env().WRITER_LOCAL_LOAD_TIMEOUT_SECONDS;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const loading = work(controller.signal);
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      void loading.then((late) => late.model.dispose(), () => undefined);
      log.warn("the writing model on this machine did not load in time", { model: path.basename(file), seconds });
      reject(new LoadTimeout(`it did not finish loading within ${seconds} s`));
    }, seconds * 1000);
  });
  try {
    return await Promise.race([loading, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Frees the model and its context (the next generation loads it again). */
export async function unloadLocalModel(): Promise<void> {
  clearTimeout(state.idleTimer);
  const loaded = await state.loaded?.catch(() => undefined);
  state.loaded = undefined;
  state.current = undefined;
  if (!loaded) return;
  loaded.chat?.chat.dispose({ disposeSequence: false });
  await loaded.context.dispose();
  await loaded.model.dispose();
  log.info("the writing model on this machine is unloaded", { model: path.basename(loaded.path) });
}

function unloadWhenIdle(): void {
  clearTimeout(state.idleTimer);
  const ms = env().WRITER_LOCAL_IDLE_MINUTES * 60_000;
  // Not while a generation runs or waits: the end of each turn sets the timer again.
  state.idleTimer = setTimeout(() => void (state.turns.idle ? unloadLocalModel() : undefined), ms);
  state.idleTimer.unref();
}

export type LocalGeneration = {
  system: string;
  /** The conversation; the last one is the user's prompt. */
  messages: { role: "user" | "assistant"; text: string }[];
  /** Constrains the answer to this JSON schema (a grammar: every answer parses). */
  jsonSchema?: object;
  maxTokens: number;
  temperature: number;
  signal?: AbortSignal;
  /** Counted from when the generation starts, not while it waits its turn. */
  timeoutMs: number;
  onText?: (delta: string) => void;
  /**
   * For a note too long for the context (its first message, the task after it): the note cut down
   * to what `fits` (lib/writer/prompts/long-note.ts). Without it, such a note is refused (PromptTooLong).
   */
  fitNote?: (note: string, fits: (text: string) => boolean) => string;
  /** Awaited once it is this generation's turn, before it starts (lets live recognition go first). */
  before?: (signal?: AbortSignal) => Promise<void>;
  /** Told when its turn has come and the model starts on it (until then it is waiting). */
  onStart?: () => void;
};

/** `inputTokens`: the prompt's; `evaluatedTokens`: those of them the model read (the rest it held from the task before). */
export type LocalAnswer = { text: string; finishReason: "stop" | "length"; inputTokens: number; evaluatedTokens: number; outputTokens: number };

class GenerationTimeout extends Error {
  name = "TimeoutError";
}

/** The prompt and the answer would not fit in the context: the rules write this one. */
export class PromptTooLong extends Error {
  name = "PromptTooLong";
}

/** The part of a generation's prompt its task shares with the note's other tasks (all but the last message). */
const noteOf = ({ system, messages }: LocalGeneration) => JSON.stringify([system, ...messages.slice(0, -1).map((m) => m.text)]);

/** One generation, in turn after the others. Throws LocalModelUnusable when the file cannot be loaded. */
export async function generateLocally(file: string, generation: LocalGeneration): Promise<LocalAnswer> {
  const endTurn = await state.turns.take(noteOf(generation), generation.signal);
  try {
    await generation.before?.(generation.signal);
    generation.signal?.throwIfAborted();
    generation.onStart?.();
    return await generate(await load(file), generation);
  } finally {
    state.lastUsedAt = new Date();
    endTurn();
    unloadWhenIdle();
  }
}

/**
 * The chat format node-llama-cpp reads from the file's template (what LlamaChat does by itself),
 * but a Qwen3.5 model is told not to think, as its template's enable_thinking=false tells it: its
 * wrapper opens a thought at the start of every answer, which the JSON grammar does not hold and the
 * answer caps pay for (a thought that runs to the cap leaves no answer; docs/decisions.md).
 */
export async function chatWrapperOf(model: LlamaModel): Promise<ChatWrapper> {
  const { QwenChatWrapper, resolveChatWrapper } = await import("node-llama-cpp");
  const wrapper = resolveChatWrapper(model);
  return wrapper instanceof QwenChatWrapper && wrapper.variation === "3.5" ? new QwenChatWrapper({ variation: "3.5", thoughts: "discourage" }) : wrapper;
}

async function chatOf(loaded: Loaded): Promise<{ sequence: LlamaContextSequence; chat: LlamaChat }> {
  if (!loaded.chat) {
    const { LlamaChat } = await import("node-llama-cpp");
    const sequence = loaded.context.getSequence();
    loaded.chat = { sequence, chat: new LlamaChat({ contextSequence: sequence, chatWrapper: await chatWrapperOf(loaded.model), autoDisposeSequence: false }) };
  }
  return loaded.chat;
}

/** Room kept beside a long note for any one task's instruction and answer: the same for every task, so they share the cut note. */
const TASK_ROOM_TOKENS = 1400;

async function generate(loaded: Loaded, { system, messages: asked, jsonSchema, maxTokens, temperature, signal, timeoutMs, onText, fitNote }: LocalGeneration): Promise<LocalAnswer> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const abort = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const tokens = (text: string) => loaded.model.tokenize(text).length;
  let messages = asked;
  let promptTokens = tokens([system, ...messages.map((m) => m.text)].join("\n"));
  if (fitNote && messages.length > 1 && promptTokens + maxTokens > loaded.context.contextSize) {
    const rest = tokens(messages.slice(1).map((m) => m.text).join("\n")) + maxTokens;
    const room = loaded.context.contextSize - tokens(system) - Math.max(TASK_ROOM_TOKENS, rest + 64);
    messages = [{ ...messages[0], text: fitNote(messages[0].text, (text) => tokens(text) <= room) }, ...messages.slice(1)];
    promptTokens = tokens([system, ...messages.map((m) => m.text)].join("\n"));
  }
  if (promptTokens + maxTokens > loaded.context.contextSize) {
    throw new PromptTooLong(`the note is too long for the model on this machine (${promptTokens} tokens and ${maxTokens} to answer; its context holds ${loaded.context.contextSize})`);
  }
  const { sequence, chat } = await chatOf(loaded);
  const history: ChatHistoryItem[] = [
    { type: "system", text: system },
    ...messages.map((m): ChatHistoryItem => (m.role === "user" ? { type: "user", text: m.text } : { type: "model", response: [m.text] })),
    { type: "model", response: [] },
  ];
  const before = sequence.tokenMeter.getState();
  try {
    const grammar = jsonSchema ? await grammarFor(loaded, jsonSchema) : undefined;
    const answer = await chat.generateResponse(history, { grammar, maxTokens, temperature, signal: abort, onTextChunk: onText });
    const used = sequence.tokenMeter.diff(before);
    state.usage.generations += 1;
    state.usage.promptTokens += promptTokens;
    state.usage.evaluatedTokens += used.usedInputTokens;
    state.usage.outputTokens += used.usedOutputTokens;
    return {
      text: answer.response,
      finishReason: answer.metadata.stopReason === "maxTokens" ? "length" : "stop",
      inputTokens: promptTokens,
      evaluatedTokens: used.usedInputTokens,
      outputTokens: used.usedOutputTokens,
    };
  } catch (err) {
    if (timeout.aborted && !signal?.aborted) throw new GenerationTimeout(`no answer within ${timeoutMs / 1000} s`);
    throw err;
  }
}

function grammarFor(loaded: Loaded, schema: object): Promise<LlamaGrammar> {
  const key = JSON.stringify(schema);
  let grammar = loaded.grammars.get(key);
  if (!grammar) {
    const { $schema: _, ...plain } = schema as Record<string, unknown>;
    grammar = llamaRuntime().then((llama) => llama.createGrammarForJsonSchema(plain as never));
    grammar.catch(() => loaded.grammars.delete(key));
    loaded.grammars.set(key, grammar);
  }
  return grammar;
}

export type LocalModelState = { loaded: boolean; loaded_at: string | null; last_used_at: string | null; load_ms: number | null };

/** Tasks waiting for the model's turn now. */
export const localModelWaiting = (): number => state.turns.waitingCount;

/** Whether the model is in memory now (Settings → Writing, /api/health, the bench). */
export function localModelState(): LocalModelState {
  const loaded = state.current;
  return {
    loaded: !!loaded,
    loaded_at: loaded?.loadedAt.toISOString() ?? null,
    last_used_at: state.lastUsedAt?.toISOString() ?? null,
    load_ms: loaded?.loadMs ?? null,
  };
}

/** What the model did in this process so far (the bench, the tests). */
export function localModelUsage(): LocalModelUsage {
  return { ...state.usage };
}

/** Tests: forget a failure (a new process). */
export function forgetLocalModelFailure(): void {
  state.failure = undefined;
}
