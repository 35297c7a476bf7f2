import type { Metadata } from "next";
import { ContentList } from "@/app/_components/content-list.tsx";

export const metadata: Metadata = { title: "Posts" };

export default function ContentPage() {
  return (
    <>
      <h1>Posts</h1>
      <p className="muted">Posts written from your notes, one version for each channel.</p>
      <ContentList />
    </>
  );
}
