import type { Metadata } from "next";
import { TagsManager } from "@/app/_components/settings/tags-manager.tsx";

export const metadata: Metadata = { title: "Tags" };

export default function TagsPage() {
  return (
    <>
      <h1>Tags</h1>
      <p className="muted">Your tags on notes, the most used first. Renaming or deleting one changes every note that has it.</p>
      <TagsManager />
    </>
  );
}
