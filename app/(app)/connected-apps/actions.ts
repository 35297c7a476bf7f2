"use server";

import { revalidatePath } from "next/cache";
import { requireUser } from "@/lib/auth/current-user.ts";
import { revokeConnectedApp } from "@/lib/oauth/connected-apps.ts";

/** Disconnects one of the person's apps: its next call to /mcp is refused. */
export async function revokeConnectedAppAction(id: string): Promise<void> {
  const user = await requireUser();
  await revokeConnectedApp({ userId: user.id, input: { id } });
  revalidatePath("/connected-apps");
}
