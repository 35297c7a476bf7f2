import type { Metadata } from "next";
import { ContentFamilyView } from "@/app/_components/posts/content-family.tsx";
import { seed } from "@/app/(app)/_seed.ts";
import { requireUser } from "@/lib/auth/current-user.ts";
import { getFamily } from "@/lib/posts/items/get-family.ts";
import { listChannels } from "@/lib/channels/channel-store.ts";
import { listPresets } from "@/lib/presets/preset-store.ts";

export const metadata: Metadata = { title: "Posts" };

export default async function ContentItemPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requireUser();
  const [family, channels, presets] = await Promise.all([
    seed(() => getFamily({ userId: user.id, id })),
    seed(() => listChannels({ userId: user.id })),
    seed(() => listPresets({ userId: user.id })),
  ]);
  return <ContentFamilyView id={id} initial={{ family, channels, presets }} />;
}
