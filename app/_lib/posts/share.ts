import { newActionId, recordDelivery, type ContentItem, type DeliveryMethod } from "@/app/_lib/posts/content.ts";

// Sharing leaves the app: the share sheet, the clipboard or a file. Voicedraft records only what
// it can know — that a share was started (before the sheet opens) and presented (the sheet
// resolved) or cancelled — never that anything was published; the person says so afterwards.

export type ShareOutcome = "presented" | "cancelled" | "failed" | "copied" | "downloaded" | "unsupported";
type Event = "initiated" | "presented" | "cancelled" | "failed";

/** The whole variant's text (a thread's posts one after another, for a file or a copy of all), or one post of a thread (1-based). */
export const shareText = (variant: ContentItem, post?: number) =>
  post !== undefined && variant.posts?.[post - 1] !== undefined ? variant.posts[post - 1] : variant.posts?.length ? variant.posts.join("\n\n") : variant.body;

/** A thread, shared post by post: X and its peers take one post at a time. */
export const isThread = (variant: ContentItem) => (variant.posts?.length ?? 0) > 1;
const fileName = (variant: ContentItem) => `${(variant.title || "post").replace(/[^\w-]+/g, "-").slice(0, 60) || "post"}.txt`;

// Each event has its own client_event_id, made once here; recordDelivery retries with the same one.
// `post`: which post of a thread the event is about (the evidence says which was presented).
async function record(variant: ContentItem, method: DeliveryMethod, state: Event, deliveryId?: string, post?: number) {
  return recordDelivery(variant.id, {
    client_event_id: newActionId(),
    method,
    state,
    content_hash: variant.content_hash,
    ...(deliveryId && { delivery_id: deliveryId }),
    ...(post !== undefined && { post }),
  });
}

export function canShare(): boolean {
  return typeof navigator !== "undefined" && typeof navigator.share === "function";
}

/** Opens the share sheet with the text, or one post of a thread (or a file where only files can be shared). */
export async function shareVariant(variant: ContentItem, { asFile = false, post }: { asFile?: boolean; post?: number } = {}): Promise<ShareOutcome> {
  if (!canShare()) return "unsupported";
  const text = shareText(variant, post);
  // The text alone: some share targets paste a `title` beside it, the post's title (the note's) in
  // an X post (issue 69). A file is named after the title.
  let data: ShareData = { text };
  if (asFile) {
    const file = new File([text], fileName(variant), { type: "text/plain" });
    if (navigator.canShare?.({ files: [file] })) data = { files: [file] };
  }
  const started = await record(variant, "share", "initiated", undefined, post);
  try {
    await navigator.share(data);
  } catch (err) {
    const state = (err as DOMException)?.name === "AbortError" ? "cancelled" : "failed";
    await record(variant, "share", state, started.id);
    return state;
  }
  await record(variant, "share", "presented", started.id);
  return "presented";
}

/** Copies the text, or one post of a thread. */
export async function copyVariant(variant: ContentItem, { post }: { post?: number } = {}): Promise<ShareOutcome> {
  const started = await record(variant, "copy", "initiated", undefined, post);
  try {
    await navigator.clipboard.writeText(shareText(variant, post));
  } catch {
    await record(variant, "copy", "failed", started.id);
    return "failed";
  }
  await record(variant, "copy", "presented", started.id);
  return "copied";
}

export async function downloadVariant(variant: ContentItem): Promise<ShareOutcome> {
  const started = await record(variant, "export", "initiated");
  const url = URL.createObjectURL(new Blob([shareText(variant)], { type: "text/plain;charset=utf-8" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: fileName(variant) });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  await record(variant, "export", "presented", started.id);
  return "downloaded";
}
