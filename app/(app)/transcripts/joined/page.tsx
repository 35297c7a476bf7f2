import type { Metadata } from "next";
import { JoinedTranscript } from "@/app/_components/joined-transcript.tsx";

export const metadata: Metadata = { title: "Full transcript" };

export default async function JoinedTranscriptPage({ searchParams }: { searchParams: Promise<{ ids?: string }> }) {
  const { ids = "" } = await searchParams;
  return <JoinedTranscript ids={ids.split(",").filter(Boolean).slice(0, 200)} />;
}
