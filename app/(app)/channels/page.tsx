import type { Metadata } from "next";
import { ChannelsManager } from "@/app/_components/settings/channels-manager.tsx";

export const metadata: Metadata = { title: "Channels" };

export default function ChannelsPage() {
  return (
    <>
      <h1>Channels</h1>
      <p className="muted">Where you post (a platform and your name for it, never a password), and the styles posts are written in.</p>
      <ChannelsManager />
    </>
  );
}
