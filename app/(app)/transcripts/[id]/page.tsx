import type { Metadata } from "next";
import { TranscriptDetail } from "@/app/_components/transcript-detail.tsx";

export const metadata: Metadata = { title: "Note" };

export default async function TranscriptPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <TranscriptDetail id={id} />;
}
