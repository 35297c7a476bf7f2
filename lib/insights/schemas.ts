import { z } from "zod";

// The same as NOTE_TITLE_MAX (lib/writer/note-title.ts), which the offline title keeps to.
export const INSIGHTS_TITLE_MAX = 60;
export const SUMMARY_MAX = 300;
export const KEY_POINTS_MAX = 5;
export const KEY_POINT_MAX = 160;
export const ACTION_ITEMS_MAX = 20;
export const ACTION_ITEM_MAX = 200;

export const ActionItem = z
  .object({
    text: z.string().meta({ description: "What to do, as a to-do (\"Call Anna about the invoice\").", example: "Send the slides to Maria" }),
    done: z.boolean().meta({ description: "Ticked off (PATCH /api/v1/transcriptions/{id}/insights). Kept when the insights are rewritten and this item's text is unchanged." }),
  })
  .meta({ id: "ActionItem" });

export const Insights = z
  .object({
    title: z.string().meta({ description: `The note's key phrase, title-cased, at most ${INSIGHTS_TITLE_MAX} characters. The note's own \`title\` (yours) wins where apps show a name.`, example: "Quarterly Budget Review" }),
    summary: z.string().meta({ description: `The note's strongest sentences in their original order, at most ${SUMMARY_MAX} characters.` }),
    key_points: z.array(z.string()).meta({ description: `Up to ${KEY_POINTS_MAX} further central sentences, in the note's order (a very short note has fewer).` }),
    action_items: z.array(ActionItem).meta({ description: `What the note commits to doing ("I need to…", "let's…", "ich muss…", "tengo que…", "il faut…"), in order; at most ${ACTION_ITEMS_MAX}; empty when it commits to nothing.` }),
    written_by: z.enum(["offline", "writer", "local-model"]).meta({ description: "offline: written on the server by rules, without a model; writer: by the configured model (WRITER_BASE_URL); local-model: by the model on the server itself." }),
    offline_reason: z
      .string()
      .nullable()
      .default(null)
      .meta({ description: "Why they were written offline though a writer is set up (it was down, refused the key, answered badly twice); null otherwise." }),
    updated_at: z.iso.datetime().meta({ description: "When they were last written or ticked. Written after recognition, after an edit of the text and after the clean-up changes it; a rewrite keeps the ticks of unchanged items." }),
  })
  .meta({
    id: "Insights",
    description: "A title, summary, key points and action items of the note, written from the text you see (your edit, else the clean-up, else the recognized text).",
  });
export type Insights = z.output<typeof Insights>;

export const TickActionItemsInput = z
  .strictObject({
    action_items: z
      .array(
        z.strictObject({
          text: z.string().min(1).max(ACTION_ITEM_MAX).meta({ description: "The item's text exactly as the note's insights.action_items carry it." }),
          done: z.boolean().meta({ description: "true: ticked off; false: to do again." }),
        }),
      )
      .min(1, "send at least one item")
      .max(ACTION_ITEMS_MAX, `must hold at most ${ACTION_ITEMS_MAX} items`)
      .meta({ description: "The items to tick or untick, named by their text (which is what a rewrite keeps ticks by, so a tick sent from a screen loaded before a rewrite still finds its item)." }),
  })
  .meta({ id: "TickActionItemsInput" });
export type TickActionItemsInput = z.output<typeof TickActionItemsInput>;
