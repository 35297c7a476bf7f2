import type { Metadata } from "next";
import { RecordingTranscript } from "@/app/_components/record/recording-transcript.tsx";
import { requireUser } from "@/lib/auth/current-user.ts";

export const metadata: Metadata = { title: "Note" };

export default async function RecordingPage({ params }: { params: Promise<{ id: string }> }) {
  const [{ id }, user] = await Promise.all([params, requireUser()]);
  return <RecordingTranscript id={id} owner={user.id} />;
}
