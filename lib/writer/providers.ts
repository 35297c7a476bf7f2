import { env } from "@/lib/env.ts";

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

// ─── Who writes each task ─────────────────────────────────────────────────────────────────────
// Every text Voicedraft writes for a person is one of these tasks. Each is written by the model
// (the writer above, when one is set up) or by the offline rules; the clean-up may also be off
// (OPTIMIZER=off). Callers never learn more than this and, afterwards, `written_by`.

export type WriterTask = "clean-up" | "insights" | "posts" | "rewrites" | "answers";
export type WrittenWith = "model" | "rules" | "off";

export function writerFor(task: WriterTask): WrittenWith {
  const model = writerSettings() !== null;
  if (task !== "clean-up") return model ? "model" : "rules";
  // OPTIMIZER: auto (the default) follows the writer; local keeps the rules even with a model set
  // up; writer and its older name openai ask the model (the OPENAI_* server when no WRITER_*).
  const { OPTIMIZER } = env();
  if (OPTIMIZER === "off") return "off";
  if (OPTIMIZER === "local") return "rules";
  if (OPTIMIZER === "auto") return model ? "model" : "rules";
  return "model";
}
