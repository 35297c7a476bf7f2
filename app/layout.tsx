import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { connection } from "next/server";
import { SecureAddressNotice } from "@/app/_components/shell/secure-address-notice.tsx";
import "./_ui/tokens.css";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Voicedraft", template: "%s · Voicedraft" },
  description: "Voice notes to clean transcripts and ready-to-post versions for every channel.",
  applicationName: "Voicedraft",
  icons: { icon: "/icons/icon-192.png", apple: "/icons/icon-192.png" },
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  viewportFit: "cover",
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f6f5f2" },
    { media: "(prefers-color-scheme: dark)", color: "#121214" },
  ],
};

// Every page is rendered per request: its scripts must carry the nonce of that response's
// Content-Security-Policy (proxy.ts), which Next adds to them.
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body>
        <SecureAddressNotice />
        {children}
      </body>
    </html>
  );
}
