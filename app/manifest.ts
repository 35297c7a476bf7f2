import type { MetadataRoute } from "next";

// GET /manifest.webmanifest – what makes the app installable
// Shared into the app (a voice memo from another app's share sheet): the service worker takes the
// POST (scripts/sw/service-worker.ts), queues the file on the phone and opens Record on its progress.
export const SHARE_TARGET_PATH = "/share-target";
const AUDIO_TYPES = ["audio/*", "video/mp4", "video/webm", ".m4a", ".mp3", ".ogg", ".opus", ".oga", ".wav", ".webm", ".aac", ".amr", ".flac", ".3gp"];

// Members the web manifest has that Next's type does not list yet.
type ManifestExtras = {
  share_target: { action: string; method: "POST"; enctype: "multipart/form-data"; params: { title?: string; text?: string; files: { name: string; accept: string[] }[] } };
  file_handlers: { action: string; accept: Record<string, string[]> }[];
};

export default function manifest(): MetadataRoute.Manifest & ManifestExtras {
  return {
    id: "/",
    name: "Voicedraft",
    short_name: "Voicedraft",
    description: "Voice notes to clean transcripts and ready-to-post versions for every channel.",
    start_url: "/record",
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: "#1e3a8a",
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
    shortcuts: [
      { name: "New recording", short_name: "Record", url: "/record", icons: [{ src: "/icons/icon-192.png", sizes: "192x192", type: "image/png" }] },
      { name: "Notes", short_name: "Notes", url: "/transcripts", icons: [{ src: "/icons/icon-192.png", sizes: "192x192", type: "image/png" }] },
    ],
    share_target: {
      action: SHARE_TARGET_PATH,
      method: "POST",
      enctype: "multipart/form-data",
      params: { title: "title", text: "text", files: [{ name: "audio", accept: AUDIO_TYPES }] },
    },
    // "Open with Voicedraft" for audio files, where the browser offers it (desktop Chromium): the
    // page reads them from the launch queue.
    file_handlers: [{ action: "/record", accept: { "audio/*": [".m4a", ".mp3", ".ogg", ".opus", ".wav", ".webm", ".aac", ".flac"] } }],
  };
}
