import type { Metadata } from "next";
import { DictionaryManager } from "@/app/_components/settings/dictionary-manager.tsx";

export const metadata: Metadata = { title: "Dictionary" };

export default function DictionaryPage() {
  return (
    <>
      <h1>Dictionary</h1>
      <p className="muted">Words the recognizer gets wrong, and how you spell them. Applied to every new transcript.</p>
      <DictionaryManager />
    </>
  );
}
