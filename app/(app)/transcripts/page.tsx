import type { Metadata } from "next";
import { TranscriptList } from "@/app/_components/transcript-list.tsx";

export const metadata: Metadata = { title: "Transcripts" };

export default function TranscriptsPage() {
  return (
    <>
      <h1>Transcripts</h1>
      <TranscriptList />
    </>
  );
}
