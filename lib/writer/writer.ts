import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV2 } from "@ai-sdk/provider";
import { APICallError, generateObject, generateText, NoObjectGeneratedError, streamObject, streamText, type ModelMessage } from "ai";
import type { z } from "zod";
import { env } from "@/lib/env.ts";
import { errorFields, log } from "@/lib/log.ts";
import { CircuitBreaker, type BreakerState } from "@/lib/writer/circuit-breaker.ts";
import { localLanguageModel } from "@/lib/writer/local/language-model.ts";
import { LocalModelUnusable } from "@/lib/writer/local/runtime.ts";
import { localWriterStatus, writingHealth, type LocalWriterStatus, type WritingHealth } from "@/lib/writer/local/status.ts";
import type { NoteTask } from "@/lib/writer/prompts/note.ts";
import { checkOutput, type OutputCheck, type OutputPart } from "@/lib/writer/check-output.ts";
import { forgetWriterOutcomes, recordWriterOutcome } from "@/lib/writer/outcomes.ts";
import { noWriterReason, writerProvider, writerSettings, type WriterProvider, type WriterSettings, type WriterTask } from "@/lib/writer/providers.ts";

// The one client of the writer (any OpenAI-compatible chat server), on the Vercel AI SDK (`ai` with
// `@ai-sdk/openai-compatible`): it turns a zod schema into the request's JSON schema
// (response_format json_schema) and validates the answer against it, streams partial objects, and
// its errors say what the server answered. Chosen over the `openai` package for those three; both
// are well kept. Every call here is bounded (a timeout, one retry of a busy server, one more ask
// after a malformed answer) and goes through one circuit breaker, and never throws: a failure
// says why, and the caller writes offline instead. The model on this machine is one more provider
// (lib/writer/local/language-model.ts), called the same way; `by` says which wrote.

// unusable: it answered, but the answer failed the check every output passes (check-output.ts).
export type FailureKind = "unconfigured" | "skipped" | "down" | "refused" | "busy" | "malformed" | "unusable";
/** Who wrote: the writer named by WRITER_BASE_URL (or its older names), or the model on this machine. */
export type WrittenByModel = "writer" | "local-model";
export type WriteOutcome<T> = { ok: true; value: T; model: string; by: WrittenByModel } | { ok: false; kind: FailureKind; reason: string };

const RETRY_DELAY_MS = 1000;
const RETRY_AFTER_MAX_MS = 5000;

let breaker: { key: string; breaker: CircuitBreaker } | undefined;

function breakerFor(provider: WriterProvider): CircuitBreaker {
  const key = provider.kind === "remote" ? `${provider.settings.baseUrl} ${provider.settings.model}` : `local ${provider.modelPath}`;
  if (breaker?.key !== key) breaker = { key, breaker: new CircuitBreaker(() => env().WRITER_COOLDOWN_SECONDS * 1000) };
  return breaker.breaker;
}

function modelOf(provider: WriterProvider, onStart?: () => void): LanguageModelV2 {
  if (provider.kind === "local") return localLanguageModel(provider.modelPath, { timeoutMs: env().WRITER_TIMEOUT_SECONDS * 1000, onStart });
  const { settings } = provider;
  return createOpenAICompatible({ name: "writer", baseURL: settings.baseUrl, apiKey: settings.apiKey, supportsStructuredOutputs: true }).chatModel(settings.model);
}

class EmptyAnswer extends Error {
  name = "EmptyAnswer";
}

// A failure's `reason` is shown to the person (a post card, a rewrite, a note's clean-up, Ask): plain
// words, what happened and, where it helps, what to do; no addresses, status codes, error names,
// token counts, times or settings. The `detail` (those) goes to the log, for the administrator.
type Failure = { kind: FailureKind; reason: string; detail: string; retryAfterMs?: number };

const detailOf = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 300);

function classify(err: unknown, provider: WriterProvider): Failure {
  if (provider.kind === "local") return classifyLocal(err);
  const { settings } = provider;
  const detail = `${settings.baseUrl} (${settings.model}): ${detailOf(err)}`;
  if (APICallError.isInstance(err) && err.statusCode !== undefined) {
    const status = err.statusCode;
    if (status === 401 || status === 403) return { kind: "refused", reason: "the writer refused its key; the administrator can check it", detail: `${detail}; check ${settings.keyVariable}` };
    if (status === 429 || status >= 500) {
      const seconds = Number(err.responseHeaders?.["retry-after"]);
      return { kind: "busy", reason: "the writer was busy", detail, retryAfterMs: Number.isFinite(seconds) ? seconds * 1000 : undefined };
    }
    if (status === 404) return { kind: "refused", reason: "the writer does not have the model it was set up with; the administrator can check it", detail: `${detail}; check WRITER_MODEL` };
    return { kind: "refused", reason: "the writer turned the request down", detail };
  }
  if (NoObjectGeneratedError.isInstance(err) || err instanceof EmptyAnswer) return { kind: "malformed", reason: "the writer's answer was not in the form asked for", detail };
  const name = (err as Error)?.name;
  if (name === "TimeoutError" || name === "AbortError") return { kind: "down", reason: "the writer did not answer in time", detail: `${detail}; WRITER_TIMEOUT_SECONDS=${env().WRITER_TIMEOUT_SECONDS}` };
  return { kind: "down", reason: "the writer could not be reached", detail };
}

function classifyLocal(err: unknown): Failure {
  const detail = detailOf(err);
  // Its own reasons (a damaged file, a load that did not finish) are written in plain words already.
  if (LocalModelUnusable.isInstance(err)) return { kind: "refused", reason: `the model on this machine cannot be used: ${err.message}`, detail };
  if ((err as Error)?.name === "PromptTooLong") return { kind: "refused", reason: "the note is too long for the model on this machine", detail };
  if (NoObjectGeneratedError.isInstance(err) || err instanceof EmptyAnswer) return { kind: "malformed", reason: "the model on this machine wrote an answer that was not in the form asked for", detail };
  const name = (err as Error)?.name;
  if (name === "TimeoutError" || name === "AbortError") return { kind: "down", reason: "the model on this machine took too long on it", detail: `${detail}; WRITER_TIMEOUT_SECONDS=${env().WRITER_TIMEOUT_SECONDS}` };
  return { kind: "refused", reason: "the model on this machine failed", detail };
}

/** For tests: the reasons a person is shown for these errors (the writer as it is set up now). */
export function failureReasons(errors: unknown[]): string[] {
  const provider = writerProvider();
  return provider ? errors.map((err) => classify(err, provider).reason) : [];
}

/** What a task asks of its answer (check-output.ts), and which of its parts are shown. */
export type AnswerCheck<T> = OutputCheck & { parts?: (value: T) => OutputPart[] };

/** What the call is for: the task (and its note), so its outcome is recorded, and the check its answer passes. */
type Purpose<T> = { task?: WriterTask; key?: string | null; check?: AnswerCheck<T> };

const partsOf = <T,>(value: T, check: AnswerCheck<T>): OutputPart[] => (check.parts ? check.parts(value) : [{ name: check.what, text: String(value) }]);

/**
 * One task's call: the bounded call (callOnce); its answer, when the task names its check, passes
 * the check every model output passes (check-output.ts) or is a failure (unusable) like any other;
 * and its outcome is recorded for the task's note (outcomes.ts: Settings → Writing, health).
 */
async function call<T>(
  attempt: (model: LanguageModelV2, signal: AbortSignal | undefined) => Promise<T>,
  { signal, retryBusy = true, onStart, task, key = null, check }: { signal?: AbortSignal; retryBusy?: boolean; onStart?: () => void } & Purpose<T> = {},
): Promise<WriteOutcome<T>> {
  const outcome = await callOnce(attempt, { signal, retryBusy, onStart });
  if (!outcome.ok || !check) {
    // Not set up is not a failure of it; skipped after failures is one (the rules wrote).
    if (task && (outcome.ok || outcome.kind !== "unconfigured")) record(task, key, outcome);
    return outcome;
  }
  const problem = checkOutput(partsOf(outcome.value, check), check, outcome.by);
  if (problem) log.warn("writer answer not used", { task, reason: problem });
  const checked: WriteOutcome<T> = problem ? { ok: false, kind: "unusable", reason: problem } : outcome;
  if (task) record(task, key, checked, outcome.by);
  return checked;
}

function record<T>(task: WriterTask, key: string | null, outcome: WriteOutcome<T>, by?: WrittenByModel): void {
  const writer = by ?? (outcome.ok ? outcome.by : writerProvider()?.kind === "local" ? "local-model" : "writer");
  recordWriterOutcome({ task, key, by: writer, ok: outcome.ok, reason: outcome.ok ? null : outcome.reason });
}

/**
 * One bounded call: skipped at once while the breaker is open; a busy server (429, 5xx) is asked
 * once more after a moment; a malformed answer is asked for once more; then it is a failure.
 * `onStart` is told when the model starts on it: at once for a server, and for the model on this
 * machine once its turn comes (until then the call is waiting, and no time of it is counted).
 */
async function callOnce<T>(
  attempt: (model: LanguageModelV2, signal: AbortSignal | undefined) => Promise<T>,
  { signal, retryBusy = true, onStart }: { signal?: AbortSignal; retryBusy?: boolean; onStart?: () => void },
): Promise<WriteOutcome<T>> {
  const provider = writerProvider();
  if (!provider) return { ok: false, kind: "unconfigured", reason: noWriterReason() ?? "no writer is set up" };
  const guard = breakerFor(provider);
  if (!guard.allow()) return { ok: false, kind: "skipped", reason: guard.skipping() ?? "the writer is being tried again by another request" };
  const model = modelOf(provider, onStart);
  const name = provider.kind === "remote" ? provider.settings.model : provider.model;
  let last: Failure | undefined;
  for (let tries = 0; tries < 2; tries += 1) {
    // The model on this machine times its generation itself: its wait for its turn does not count.
    const timeout = provider.kind === "remote" ? AbortSignal.timeout(env().WRITER_TIMEOUT_SECONDS * 1000) : undefined;
    if (provider.kind === "remote") onStart?.();
    try {
      const value = await attempt(model, signal && timeout ? AbortSignal.any([signal, timeout]) : (timeout ?? signal));
      guard.succeeded();
      return { ok: true, value, model: name, by: provider.kind === "remote" ? "writer" : "local-model" };
    } catch (err) {
      if (signal?.aborted) throw err; // the caller gave up: not the writer's failure
      last = classify(err, provider);
      log.warn("writer call failed", { kind: last.kind, attempt: tries + 1, detail: last.detail, ...errorFields(err) });
      if (!(last.kind === "malformed" || (last.kind === "busy" && retryBusy))) break;
      if (provider.kind === "local" && last.kind === "malformed") break; // under its grammar, a second ask costs as much and fares the same
      if (last.kind === "busy") await new Promise((r) => setTimeout(r, Math.min(last!.retryAfterMs ?? RETRY_DELAY_MS, RETRY_AFTER_MAX_MS)));
    }
  }
  // A server that did not answer in time is down; the model on this machine that ran out of time
  // on its own work is slow on this task, not gone: that counts as one failure like any other.
  guard.failed(last!.reason, { down: last!.kind === "down" && provider.kind === "remote" });
  return { ok: false, kind: last!.kind, reason: last!.reason };
}

type Ask = {
  system: string;
  /** The user's message; or a note and one task on it, sent as two messages in that order (the note first). */
  prompt: string | NoteTask;
  signal?: AbortSignal;
  temperature?: number;
  retryBusy?: boolean;
  /** The longest answer this task needs, in tokens (lib/writer/answer-tokens.ts). */
  maxTokens?: number;
  /** Told when the model starts on it (see `call`). */
  onStart?: () => void;
  /** The task and its note (its outcome is recorded: Settings → Writing and health say it). */
  task?: WriterTask;
  key?: string | null;
};

/** The AI SDK's prompt of an ask: one user message, or the note's and then the task's. */
function promptOf(prompt: Ask["prompt"]): { messages: ModelMessage[] } {
  if (typeof prompt === "string") return { messages: [{ role: "user", content: prompt }] };
  return { messages: [{ role: "user", content: prompt.note }, { role: "user", content: prompt.task }] };
}

/** An answer in the shape of `schema` (sent as a JSON schema, validated on return). */
export function writeObject<S extends z.ZodType>({
  schema, name, system, prompt, signal, temperature = 0.4, maxTokens, onStart, task, key, check,
}: Ask & { schema: S; name: string; check?: AnswerCheck<z.output<S>> }): Promise<WriteOutcome<z.output<S>>> {
  return call(
    async (model, abortSignal) =>
      (await generateObject({ model, schema, schemaName: name, system, ...promptOf(prompt), temperature, maxOutputTokens: maxTokens, maxRetries: 0, abortSignal })).object as z.output<S>,
    { signal, onStart, task, key, check },
  );
}

/** A plain-text answer (the clean-up of a transcript, which is text and nothing else). */
export function writeText({ system, prompt, signal, retryBusy, temperature = 0, maxTokens, onStart, task, key, check }: Ask & { check?: AnswerCheck<string> }): Promise<WriteOutcome<string>> {
  return call(async (model, abortSignal) => {
    const { text } = await generateText({ model, system, ...promptOf(prompt), temperature, maxOutputTokens: maxTokens, maxRetries: 0, abortSignal });
    if (!text.trim()) throw new EmptyAnswer();
    return text.trim();
  }, { signal, retryBusy, onStart, task, key, check });
}

/**
 * An answer in the shape of `schema`, its partial objects passed to `onPartial` as they arrive
 * (posts appear word by word on the Make posts screen). The same bounds as writeObject.
 */
export function streamWriterObject<S extends z.ZodType>({
  schema,
  name,
  system,
  prompt,
  signal,
  temperature = 0.4,
  maxTokens,
  onStart,
  onPartial,
  task,
  key,
  check,
}: Ask & { schema: S; name: string; onPartial: (partial: unknown) => void; check?: AnswerCheck<z.output<S>> }): Promise<WriteOutcome<z.output<S>>> {
  return call(async (model, abortSignal) => {
    let failure: unknown;
    const result = streamObject({
      model, schema, schemaName: name, system, ...promptOf(prompt), temperature, maxOutputTokens: maxTokens, maxRetries: 0, abortSignal, onError: ({ error }) => void (failure = error),
    });
    for await (const partial of result.partialObjectStream) onPartial(partial);
    if (failure) throw failure;
    return (await result.object) as z.output<S>;
  }, { signal, onStart, task, key, check });
}

/**
 * A plain-text answer streamed: each piece passed to `onDelta` as it arrives (an answer to a
 * question appears word by word). A busy server is asked once more only before any piece came;
 * an empty answer is a failure (malformed), not asked again, since pieces may have been shown.
 */
export function streamWriterText({ system, prompt, signal, temperature = 0.2, onDelta, task, key, check }: Ask & { onDelta: (delta: string) => void; check?: AnswerCheck<string> }): Promise<WriteOutcome<string>> {
  let started = false;
  return call(async (model, abortSignal) => {
    if (started) throw new EmptyAnswer(); // a second try after pieces were shown would repeat them
    let failure: unknown;
    let text = "";
    const result = streamText({ model, system, ...promptOf(prompt), temperature, maxRetries: 0, abortSignal, onError: ({ error }) => void (failure = error) });
    for await (const delta of result.textStream) {
      started = true;
      text += delta;
      onDelta(delta);
    }
    if (failure) throw failure;
    if (!text.trim()) {
      started = true;
      throw new EmptyAnswer();
    }
    return text.trim();
  }, { signal, task, key, check });
}

/** `writing`: what its last tasks did, in words and as health says it (lib/writer/local/status.ts). */
export type WriterStatus = { writing: WritingHealth } & (
  | { configured: false; local: LocalWriterStatus }
  | ({ configured: true; provider: "writer"; model: string; base_url: string; named_by: WriterSettings["namedBy"] } & BreakerState)
  | ({ configured: true; provider: "local-model"; model: string; local: LocalWriterStatus } & BreakerState)
);

/** What Settings → Writing shows: which writer, what its last tasks did and how its last calls went in this process. */
export function writerStatus(): WriterStatus {
  const provider = writerProvider();
  const writing = writingHealth();
  if (!provider) return { writing, configured: false, local: localWriterStatus() };
  const breakerState = breakerFor(provider).state();
  if (provider.kind === "local") return { writing, configured: true, provider: "local-model", model: provider.model, local: localWriterStatus(), ...breakerState };
  const { settings } = provider;
  return { writing, configured: true, provider: "writer", model: settings.model, base_url: settings.baseUrl, named_by: settings.namedBy, ...breakerState };
}

/** A quick "is it there?" for Settings: the server's model list, within 3 s. Never throws. */
export async function probeWriter(): Promise<{ reachable: boolean; error: string | null }> {
  const settings = writerSettings();
  if (!settings) return { reachable: false, error: null };
  try {
    const res = await fetch(`${settings.baseUrl}/models`, {
      headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
      signal: AbortSignal.timeout(3000),
    });
    await res.body?.cancel();
    // In words for the person; the status and the setting to check go to the log.
    if (res.status === 401 || res.status === 403) {
      log.warn("writer refused its key", { detail: `${settings.baseUrl}: ${res.status}; check ${settings.keyVariable}` });
      return { reachable: true, error: "it refused its key; the administrator can check it" };
    }
    return { reachable: true, error: null };
  } catch (err) {
    log.warn("writer cannot be reached", { detail: `${settings.baseUrl}: ${detailOf(err)}` });
    return { reachable: false, error: "it cannot be reached" };
  }
}

let probed: { at: number; key: string; result: { reachable: boolean; error: string | null } } | undefined;
const PROBE_FRESH_MS = 60_000;

/** Settings → Writing: the writer, whether it answers (probed at most once a minute), its last error here. */
export async function describeWriter(): Promise<WriterStatus & { reachable?: boolean; probe_error?: string | null }> {
  const status = writerStatus();
  if (!status.configured || status.provider === "local-model") return status;
  const key = `${status.base_url} ${status.model}`;
  if (!probed || probed.key !== key || Date.now() - probed.at > PROBE_FRESH_MS) probed = { at: Date.now(), key, result: await probeWriter() };
  return { ...status, reachable: probed.result.reachable, probe_error: probed.result.error };
}

/** Tests: forget the breaker's state (a new writer, a new process). */
export function resetWriterState(): void {
  breaker = undefined;
  probed = undefined;
  forgetWriterOutcomes();
}
