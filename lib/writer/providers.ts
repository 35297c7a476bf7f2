import path from "node:path";
import { env } from "@/lib/env.ts";
import { chooseLocalModel } from "@/lib/writer/local/model-file.ts";
import { localModelFailure } from "@/lib/writer/local/runtime.ts";

// The one place that reads the writer's settings and their older names, and decides which task the
// model writes. Which writer, if any: WRITER_BASE_URL names one; without it, the older settings still do
// (OPTIMIZER=openai or CONTENT_GENERATOR=openai asked OPENAI_BASE_URL's server with
// OPENAI_CHAT_MODEL), so a deployment configured before the writer existed keeps its model.

export type WriterSettings = {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** How it was named, for Settings → Writing and for error messages. */
  namedBy: "WRITER_BASE_URL" | "OPENAI_BASE_URL";
  keyVariable: "WRITER_API_KEY" | "OPENAI_API_KEY";
};

const DEFAULT_MODEL = "gpt-4o-mini";

export function writerSettings(): WriterSettings | null {
  const e = env();
  if (e.WRITER_BASE_URL) {
    return {
      baseUrl: e.WRITER_BASE_URL.replace(/\/+$/, ""),
      model: e.WRITER_MODEL ?? DEFAULT_MODEL,
      apiKey: e.WRITER_API_KEY || undefined,
      namedBy: "WRITER_BASE_URL",
      keyVariable: "WRITER_API_KEY",
    };
  }
  if (e.OPTIMIZER === "openai" || e.OPTIMIZER === "writer" || e.CONTENT_GENERATOR === "openai") {
    return {
      baseUrl: e.OPENAI_BASE_URL.replace(/\/+$/, ""),
      model: e.WRITER_MODEL ?? e.OPENAI_CHAT_MODEL,
      apiKey: e.WRITER_API_KEY || e.OPENAI_API_KEY || undefined,
      namedBy: "OPENAI_BASE_URL",
      keyVariable: e.WRITER_API_KEY ? "WRITER_API_KEY" : "OPENAI_API_KEY",
    };
  }
  return null;
}

// ─── Which writer ─────────────────────────────────────────────────────────────────────────────
// A writer named by the settings above always wins; without one, the model on this machine
// (lib/writer/local/) writes once its file is there and loads (WRITER_LOCAL=auto, enough memory);
// else nothing does, and the offline rules write.

export type WriterProvider =
  | { kind: "remote"; settings: WriterSettings }
  | { kind: "local"; modelPath: string; model: string };

export function writerProvider(): WriterProvider | null {
  const settings = writerSettings();
  if (settings) return { kind: "remote", settings };
  const choice = chooseLocalModel();
  if (!choice.path || localModelFailure(choice.path)) return null;
  return { kind: "local", modelPath: choice.path, model: path.basename(choice.path, ".gguf") };
}

/** Which model writes now (the writer named by the settings, or the one on this machine), or null. */
export function modelWriterNow(): "writer" | "local-model" | null {
  const provider = writerProvider();
  return provider ? (provider.kind === "remote" ? "writer" : "local-model") : null;
}

const NO_LOCAL_MODEL = {
  off: "the model on this machine is turned off",
  memory: "this machine has too little memory for the model",
  "no-such-file": "the model file it was given is not there",
  "not-downloaded": "the model on this machine has not been downloaded yet",
} as const;

/** Why no writer writes (for offline reasons and Settings), or null when one does. */
export function noWriterReason(): string | null {
  if (writerProvider()) return null;
  const choice = chooseLocalModel();
  if (choice.path !== null) return localModelFailure(choice.path);
  // Shown on posts and answers: in words; the settings behind it are in health's local_model.reason.
  return `no writer is set up, and ${NO_LOCAL_MODEL[choice.why]}`;
}

// ─── Who writes each task ─────────────────────────────────────────────────────────────────────
// Every text Voicedraft writes for a person is one of these tasks. Each is written by the model
// (the writer above, remote or on this machine) or by the offline rules; the clean-up may also be off
// (OPTIMIZER=off). Callers never learn more than this and, afterwards, `written_by`.

export type WriterTask = "clean-up" | "insights" | "posts" | "rewrites" | "answers";
export type WrittenWith = "model" | "rules" | "off";

export function writerFor(task: WriterTask): WrittenWith {
  const model = writerProvider() !== null;
  if (task !== "clean-up") return model ? "model" : "rules";
  // OPTIMIZER: auto (the default) follows the writer; local keeps the rules even with a model set
  // up; writer and its older name openai ask the model (the OPENAI_* server when no WRITER_*).
  const { OPTIMIZER } = env();
  if (OPTIMIZER === "off") return "off";
  if (OPTIMIZER === "local") return "rules";
  if (OPTIMIZER === "auto") return model ? "model" : "rules";
  return "model";
}
