import { pickWordAt } from "@/app/_lib/notes/note-text.ts";

// DOM helpers of the note's reading text: which word a tap hit (and where it stands in the text),
// the part of the window the pinned bars leave free, and the scrolling a reader asked for.

/** The part of the window not covered by the bars pinned at its top and bottom (`data-pin`). */
export function visibleBand(): { top: number; bottom: number } {
  let top = 0;
  let bottom = window.innerHeight;
  for (const bar of document.querySelectorAll<HTMLElement>("[data-pin]")) {
    const box = bar.getBoundingClientRect();
    if (bar.dataset.pin === "top") top = Math.max(top, box.bottom);
    else bottom = Math.min(bottom, box.top);
  }
  return { top, bottom };
}

export const scrolling = (): ScrollBehavior => (window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth");

/** Where a text node starts within `within`'s text (the sum of the text before it). */
function offsetOf(node: Node, within: HTMLElement): number {
  const walker = document.createTreeWalker(within, NodeFilter.SHOW_TEXT);
  let offset = 0;
  for (let current = walker.nextNode(); current && current !== node; current = walker.nextNode()) offset += current.textContent?.length ?? 0;
  return offset;
}

/**
 * The word under a point of a text element, and where it starts in the element's text; null when
 * the point is not on a word (a margin, a space).
 */
export function wordAtPoint(x: number, y: number, within: HTMLElement): { word: string; at: number } | null {
  const doc = document as Document & { caretRangeFromPoint?: (x: number, y: number) => Range | null };
  const position = doc.caretPositionFromPoint?.(x, y);
  const range = position ? null : doc.caretRangeFromPoint?.(x, y);
  const node = position?.offsetNode ?? range?.startContainer;
  const offset = position?.offset ?? range?.startOffset ?? 0;
  if (!node || node.nodeType !== Node.TEXT_NODE || !within.contains(node)) return null;
  const text = node.textContent ?? "";
  const { word, at: start } = pickWordAt(text, offset, offset);
  if (!word) return null;
  // The caret lands at the nearest word even for a tap beside the text: only a tap on the word counts.
  const box = new Range();
  box.setStart(node, start);
  box.setEnd(node, start + word.length);
  const hit = [...box.getClientRects()].some((r) => x >= r.left - 4 && x <= r.right + 4 && y >= r.top - 4 && y <= r.bottom + 4);
  return hit ? { word, at: offsetOf(node, within) + start } : null;
}
