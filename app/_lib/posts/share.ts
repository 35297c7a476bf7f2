import { newActionId, recordDelivery, type ContentItem, type DeliveryMethod } from "@/app/_lib/posts/content.ts";

// Sharing leaves the app: the share sheet, the clipboard or a file. Voicedraft records only what
// it can know — that a share was started (before the sheet opens) and presented (the sheet
// resolved) or cancelled — never that anything was published; the person says so afterwards.

export type ShareOutcome = "presented" | "cancelled" | "failed" | "copied" | "downloaded" | "unsupported";
type Event = "initiated" | "presented" | "cancelled" | "failed";

export const shareText = (variant: ContentItem) => (variant.posts?.length ? variant.posts.join("\n\n") : variant.body);
const fileName = (variant: ContentItem) => `${(variant.title || "post").replace(/[^\w-]+/g, "-").slice(0, 60) || "post"}.txt`;

// Each event has its own client_event_id, made once here; recordDelivery retries with the same one.
async function record(variant: ContentItem, method: DeliveryMethod, state: Event, deliveryId?: string) {
  return recordDelivery(variant.id, {
    client_event_id: newActionId(),
    method,
    state,
    content_hash: variant.content_hash,
    ...(deliveryId && { delivery_id: deliveryId }),
  });
}

export function canShare(): boolean {
  return typeof navigator !== "undefined" && typeof navigator.share === "function";
}

/** Opens the share sheet with the text (or a file where only files can be shared). */
export async function shareVariant(variant: ContentItem, { asFile = false } = {}): Promise<ShareOutcome> {
  if (!canShare()) return "unsupported";
  const text = shareText(variant);
  let data: ShareData = { title: variant.title || undefined, text };
  if (asFile) {
    const file = new File([text], fileName(variant), { type: "text/plain" });
    if (navigator.canShare?.({ files: [file] })) data = { title: variant.title || undefined, files: [file] };
  }
  const started = await record(variant, "share", "initiated");
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

export async function copyVariant(variant: ContentItem): Promise<ShareOutcome> {
  const started = await record(variant, "copy", "initiated");
  try {
    await navigator.clipboard.writeText(shareText(variant));
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
