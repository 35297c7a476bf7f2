import type { Metadata } from "next";
import { FileText } from "lucide-react";
import { ContentList } from "@/app/_components/content-list.tsx";
import { ButtonLink, PageHeader } from "@/app/_ui/index.ts";

export const metadata: Metadata = { title: "Posts" };

export default function ContentPage() {
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
      <ContentList />
    </>
  );
}
