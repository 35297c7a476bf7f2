import type { Metadata } from "next";
import { RewriteStylesManager } from "@/app/_components/settings/rewrite-styles-manager.tsx";

export const metadata: Metadata = { title: "Rewrite styles" };

export default function RewriteStylesPage() {
  return (
    <>
      <h1>Rewrite styles</h1>
      <p className="muted">Your own ways to rewrite a note: a name, and what the writer should do. They appear under “Rewrite as…” on every note.</p>
      <RewriteStylesManager />
    </>
  );
}
