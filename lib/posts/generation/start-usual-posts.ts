import { channelsForEveryNote } from "@/lib/channels/channel-store.ts";
import { db } from "@/lib/db/client.ts";
import { createVariants } from "@/lib/posts/generation/create-variants.ts";
import { createMaster } from "@/lib/posts/items/create-master.ts";

// Posts while you read the note (issue 67): as soon as a new note's text is ready, its posts for the
// person's usual channels start, so "Make posts" opens on posts already written or being written.
// Usual: the channels their recent posts were shared to (most used first), and those marked "write
// for every note". The note's insights were asked for first (the title and summary are what the
// person reads first), and the posts follow in the order the channels are used; the writer's queue
// keeps that order for one note (lib/writer/local/turns.ts). None usual: nothing is written.

/** Shares looked at to know the usual channels. */
const RECENT_SHARES = 30;
const SHARED = ["initiated", "presented", "confirmed_manual"];

/** The channels the person's recent posts were shared to, most used first (then most recent). */
async function sharedToRecently(userId: string): Promise<string[]> {
  const prisma = await db();
  const shares = await prisma.contentDelivery.findMany({
    where: { userId, state: { in: SHARED } },
    orderBy: { createdAt: "desc" },
    take: RECENT_SHARES,
    select: { item: { select: { channelId: true } } },
  });
  const uses = new Map<string, number>();
  for (const share of shares) if (share.item.channelId) uses.set(share.item.channelId, (uses.get(share.item.channelId) ?? 0) + 1);
  return [...uses.keys()].sort((a, b) => uses.get(b)! - uses.get(a)!);
}

/** Starts the posts of a new note for the person's usual channels; the master's id, or null when they have none. */
export async function startUsualPosts({ userId, noteId }: { userId: string; noteId: string }): Promise<string | null> {
  const channels = await channelsForEveryNote({ userId, sharedTo: await sharedToRecently(userId) });
  if (!channels.length) return null;
  const master = await createMaster({ userId, input: { source_transcription_id: noteId } });
  await createVariants({
    userId,
    masterId: master.id,
    input: { client_request_id: `every-note-${noteId}`, targets: channels.map((c) => ({ channel_id: c.id, preset_id: c.default_preset_id })) },
  });
  return master.id;
}
