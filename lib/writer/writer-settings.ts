import { env } from "@/lib/env.ts";

// Which writer, if any: WRITER_BASE_URL names one; without it, the older settings still do
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
