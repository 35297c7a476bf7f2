import type { Metadata } from "next";
import { RewriteView } from "@/app/_components/note/rewrite-view.tsx";
import { seed } from "@/app/(app)/_seed.ts";
import { requireUser } from "@/lib/auth/current-user.ts";
import { getRewrite } from "@/lib/rewrites/rewrite-store.ts";

export const metadata: Metadata = { title: "Rewrite" };

export default async function RewritePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requireUser();
  // Not found (or not yours): the client says so.
  const initial = await seed(() => getRewrite({ userId: user.id, id }));
  return <RewriteView id={id} initial={initial} />;
}
