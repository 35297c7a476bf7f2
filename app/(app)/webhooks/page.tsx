import type { Metadata } from "next";
import { WebhooksManager } from "@/app/_components/webhooks/webhooks-manager.tsx";

export const metadata: Metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return (
    <>
      <h1>Webhooks</h1>
      <p className="muted">Tell your own tools (n8n, Zapier, Home Assistant, a script) when a note or a post is ready. Each event is signed, so your receiver can check it came from Voicedraft.</p>
      <WebhooksManager />
      <p className="muted">
        How to check the signature and what each event holds: <a href="/docs#tag-webhooks">the API reference</a>.
      </p>
    </>
  );
}
