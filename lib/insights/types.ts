// The one interface every insights writer has: the offline writer (lib/insights/offline-insights.ts)
// and the writer's (lib/insights/writer-insights.ts, queued by write-note-insights.ts when a model
// serves insights). A caller only ever learns `written_by`, never which model answered.

export type InsightsInput = {
  /** The text the person sees: their edit, else the completed clean-up, else the recognized text. */
  text: string;
  /** ISO 639-1 code of the note's language ("en", "de", …). */
  language: string;
  /** The person's own name for the note, if they gave one (a hint; the insights title is written anyway). */
  title?: string | null;
  /** When the note was recorded: names it when its words give no title ("Voice note, Dec 1"). */
  recordedAt?: Date;
};

/** What a writer produces; ticks, `written_by` and `updated_at` are added by composeInsights. */
export type InsightsDraft = {
  title: string;
  summary: string;
  key_points: string[];
  /** The commitments, each as a to-do ("Call Anna about the invoice"). */
  action_items: string[];
  /** Which model wrote it, when one did (the writer's, or the one on this machine). */
  written_by?: "writer" | "local-model";
};

/** The title and summary, written before the rest (the model on this machine writes them first). */
export type InsightsHeadline = Pick<InsightsDraft, "title" | "summary" | "written_by">;

/** `onHeadline`: hears the title and summary as soon as a writer that writes them first has them (to be shown while the rest is written). */
export type InsightsHooks = { onHeadline?: (headline: InsightsHeadline) => Promise<void> };

export type InsightsWriter = {
  name: "offline" | "writer";
  write(input: InsightsInput, hooks?: InsightsHooks): Promise<InsightsDraft>;
};
