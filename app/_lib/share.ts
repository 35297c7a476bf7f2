import { recordDelivery, type ContentItem } from "@/app/_lib/content.ts";

// Sharing leaves the app: the share sheet, the clipboard or a file. Voicedraft records only what
// it can know — that a share was started (before the sheet opens) and presented (the sheet
// resolved) or cancelled — never that anything was published.

export type ShareOutcome = "presented" | "cancelled" | "failed" | "copied" | "downloaded" | "unsupported";

const shareText = (variant: ContentItem) => (variant.posts?.length ? variant.posts.join("\n\n") : variant.body);
const fileName = (variant: ContentItem) => `${(variant.title || "post").replace(/[^\w-]+/g, "-").slice(0, 60) || "post"}.txt`;

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
  const started = await recordDelivery(variant.id, { method: "share", state: "initiated", content_hash: variant.content_hash });
  try {
    await navigator.share(data);
  } catch (err) {
    const cancelled = (err as DOMException)?.name === "AbortError";
    const state = cancelled ? "cancelled" : "failed";
    await recordDelivery(variant.id, { method: "share", state, content_hash: variant.content_hash, delivery_id: started.id });
    return state;
  }
  await recordDelivery(variant.id, { method: "share", state: "presented", content_hash: variant.content_hash, delivery_id: started.id });
  return "presented";
}

export async function copyVariant(variant: ContentItem): Promise<ShareOutcome> {
  const started = await recordDelivery(variant.id, { method: "copy", state: "initiated", content_hash: variant.content_hash });
  try {
    await navigator.clipboard.writeText(shareText(variant));
  } catch {
    await recordDelivery(variant.id, { method: "copy", state: "failed", content_hash: variant.content_hash, delivery_id: started.id });
    return "failed";
  }
  await recordDelivery(variant.id, { method: "copy", state: "presented", content_hash: variant.content_hash, delivery_id: started.id });
  return "copied";
}

export async function downloadVariant(variant: ContentItem): Promise<ShareOutcome> {
  const started = await recordDelivery(variant.id, { method: "export", state: "initiated", content_hash: variant.content_hash });
  const url = URL.createObjectURL(new Blob([shareText(variant)], { type: "text/plain;charset=utf-8" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: fileName(variant) });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  await recordDelivery(variant.id, { method: "export", state: "presented", content_hash: variant.content_hash, delivery_id: started.id });
  return "downloaded";
}
