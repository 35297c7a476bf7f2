import type { Metadata } from "next";
import { ContentList } from "@/app/_components/content-list.tsx";

export const metadata: Metadata = { title: "Content" };

export default function ContentPage() {
  return (
    <>
      <h1>Content</h1>
      <p className="muted">Masters made from your transcripts, and their versions for each channel.</p>
      <ContentList />
    </>
  );
}
