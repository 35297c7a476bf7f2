import type { Metadata } from "next";
import { Recorder } from "@/app/_components/record/recorder.tsx";
import { UploadQueuePanel } from "@/app/_components/record/upload-queue-panel.tsx";
import { requireUser } from "@/lib/auth/current-user.ts";

export const metadata: Metadata = { title: "Record" };

export default async function RecordPage() {
  const user = await requireUser();
  return (
    <>
      <h1 className="visually-hidden">Record a voice note</h1>
      <Recorder owner={user.id} />
      <UploadQueuePanel owner={user.id} />
    </>
  );
}
