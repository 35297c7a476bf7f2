import type { MetadataRoute } from "next";

// GET /manifest.webmanifest – what makes the app installable
export default function manifest(): MetadataRoute.Manifest {
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
  };
}
