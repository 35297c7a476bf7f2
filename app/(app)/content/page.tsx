import type { Metadata } from "next";
import { FileText } from "lucide-react";
import { ContentList } from "@/app/_components/posts/content-list.tsx";
import { ButtonLink, PageHeader } from "@/app/_ui/index.ts";
import { seed } from "@/app/(app)/_seed.ts";
import { requireUser } from "@/lib/auth/current-user.ts";
import { getFamily } from "@/lib/posts/items/get-family.ts";
import { listMasters } from "@/lib/posts/items/list-masters.ts";

export const metadata: Metadata = { title: "Posts" };

export default async function ContentPage() {
  const user = await requireUser();
  const list = await seed(() => listMasters({ userId: user.id, input: { limit: 50 } }));
  const families = list && (await Promise.all(list.items.map((m) => seed(() => getFamily({ userId: user.id, id: m.id })))));
  const initial = list && families ? { list, families: families.filter((f) => f !== undefined) } : undefined;
  return (
    <>
      <PageHeader
        title="Posts"
        action={
          <ButtonLink href="/transcripts" variant="secondary">
            <FileText size={18} aria-hidden="true" /> From a note
          </ButtonLink>
        }
      />
      <ContentList initial={initial} />
    </>
  );
}
