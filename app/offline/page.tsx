import type { Metadata } from "next";

export const metadata: Metadata = { title: "Offline" };

// Served by the service worker for pages it has never cached while there is no network.
export default function OfflinePage() {
  return (
    <main className="vd">
      <h1>You are offline</h1>
      <p>This page has not been saved on this device yet. Recordings you make are kept and upload when you are back online.</p>
      <p>
        <a href="/record">Go to recording</a>
      </p>
    </main>
  );
}
