import type { Metadata } from "next";
import { ContentFamilyView } from "@/app/_components/content-family.tsx";

export const metadata: Metadata = { title: "Posts" };

export default async function ContentItemPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ContentFamilyView id={id} />;
}
