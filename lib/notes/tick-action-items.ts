import { ApiError } from "@/lib/http/errors.ts";
import { getOwnedNote } from "@/lib/notes/store/owned-note.ts";
import { actionItemKey } from "@/lib/insights/compose-insights.ts";
import type { TickActionItemsInput } from "@/lib/insights/schemas.ts";
import { changeInsights } from "@/lib/insights/store-insights.ts";
import { presentNote } from "@/lib/notes/present-note.ts";
import type { TranscriptionResult } from "@/lib/notes/schemas.ts";

/**
 * Ticks or unticks action items, named by their text (what a rewrite keeps ticks by). All or
 * nothing: an item the note no longer has refuses the whole request (409 unknown_action_item).
 */
export async function tickActionItems({
  userId,
  id,
  input,
}: {
  userId: string;
  id: string;
  input: TickActionItemsInput;
}): Promise<TranscriptionResult> {
  await changeInsights({
    userId,
    id,
    change: (current) => {
      const wanted = new Map(input.action_items.map((item) => [actionItemKey(item.text), item.done]));
      const known = new Set(current?.action_items.map((item) => actionItemKey(item.text)));
      const missing = input.action_items.find((item) => !known.has(actionItemKey(item.text)));
      if (!current || missing) {
        throw new ApiError("unknown_action_item", `This note has no action item "${missing?.text ?? input.action_items[0].text}" (any more); reload it and tick again.`);
      }
      const action_items = current.action_items.map((item) => ({ ...item, done: wanted.get(actionItemKey(item.text)) ?? item.done }));
      return { ...current, action_items, updated_at: new Date().toISOString() };
    },
  });
  return presentNote(await getOwnedNote({ userId, id }));
}
