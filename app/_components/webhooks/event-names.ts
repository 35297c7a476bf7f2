import type { WebhookEvent } from "@/app/_lib/webhooks.ts";

// What each event means, in the words of someone who records notes. A Record over the API's own
// list of events: a new event in the API fails the typecheck here until it has its words.
export const EVENT_NAMES: Record<WebhookEvent, string> = {
  "transcription.completed": "A note is transcribed",
  "transcription.failed": "A recording could not be transcribed",
  "optimization.completed": "A note is cleaned up",
  "content.variants.generated": "Posts are written from a note",
  "content.variant.approved": "A post is approved",
  "content.delivery.recorded": "A post is shared or published",
  "note.deleted": "A note is deleted",
};

export const ALL_EVENTS = Object.keys(EVENT_NAMES) as WebhookEvent[];

/** The event's words; the test event and any unknown type by their names. */
export const eventName = (type: string) => (type === "webhook.test" ? "Test event" : (EVENT_NAMES[type as WebhookEvent] ?? type));

/** The URL in pieces that each end after a "/" or "." (the places a line may break), for `UrlText`. */
export const urlPieces = (url: string): string[] => url.split(/(?<=[/.])/);

/** "hooks.example.com/voicedraft": the URL without its scheme, for a title. */
export function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname === "/" ? "" : u.pathname}`;
  } catch {
    return url;
  }
}
