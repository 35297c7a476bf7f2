import type { Metadata } from "next";
import { AskScreen } from "@/app/_components/ask/ask-screen.tsx";
import { PageHeader } from "@/app/_ui/index.ts";
import { requireUser } from "@/lib/auth/current-user.ts";

export const metadata: Metadata = { title: "Ask your notes" };

// Ask your notes (issue 46 item 2), reached from Notes. ?q= asks at once (Back from a cited note).
export default async function AskPage({ searchParams }: { searchParams: Promise<{ q?: string | string[] }> }) {
  const [, query] = await Promise.all([requireUser(), searchParams]);
  const q = typeof query.q === "string" ? query.q.slice(0, 500) : "";
  return (
    <>
      <PageHeader title="Ask your notes" />
      <AskScreen initialQuestion={q} />
    </>
  );
}
