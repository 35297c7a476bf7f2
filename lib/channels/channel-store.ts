import { db } from "@/lib/db/client.ts";
import { ApiError, notFound } from "@/lib/http/errors.ts";
import { countPosts } from "@/lib/posts/store/post-lists.ts";
import { toChannel, type Channel, type CreateChannelInput, type UpdateChannelInput } from "@/lib/channels/schemas.ts";

// The channel use cases are small CRUD; one file keeps them together.

export async function listChannels({ userId }: { userId: string }): Promise<Channel[]> {
  const prisma = await db();
  const rows = await prisma.channel.findMany({ where: { userId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toChannel);
}

export async function getChannel({ userId, id }: { userId: string; id: string }): Promise<Channel> {
  const prisma = await db();
  const row = await prisma.channel.findFirst({ where: { id, userId } });
  if (!row) throw notFound(`The channel ${id}`);
  return toChannel(row);
}

export async function createChannel({ userId, input }: { userId: string; input: CreateChannelInput }): Promise<Channel> {
  const prisma = await db();
  const row = await prisma.channel.create({
    data: { userId, platform: input.platform, name: input.name, active: input.active ?? true, writeForEveryNote: input.write_for_every_note ?? false },
  });
  return toChannel(row);
}

export async function updateChannel({ userId, id, input }: { userId: string; id: string; input: UpdateChannelInput }): Promise<Channel> {
  const prisma = await db();
  const { write_for_every_note: writeForEveryNote, ...rest } = input;
  const { count } = await prisma.channel.updateMany({ where: { id, userId }, data: { ...rest, writeForEveryNote } });
  if (count === 0) throw notFound(`The channel ${id}`);
  return getChannel({ userId, id });
}

/** Deletes a channel no variant uses; a used one can be deactivated instead (409 channel_in_use). */
export async function deleteChannel({ userId, id }: { userId: string; id: string }): Promise<Channel> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const row = await tx.channel.findFirst({ where: { id, userId } });
    if (!row) throw notFound(`The channel ${id}`);
    if (await countPosts(tx, { channelId: id })) {
      throw new ApiError("channel_in_use", "Variants were made for this channel; set active to false instead of deleting it.");
    }
    await tx.channel.delete({ where: { id } });
    return toChannel(row);
  });
}

/**
 * The channels a new note's posts are written for before anyone asks: the active ones marked
 * "write for every note", and the active ones in `sharedTo` (the channels the person's recent posts
 * were shared to, most used first). In that order: the ones shared to first, as the person uses them.
 */
export async function channelsForEveryNote({ userId, sharedTo }: { userId: string; sharedTo: string[] }): Promise<Channel[]> {
  const prisma = await db();
  const rows = await prisma.channel.findMany({
    where: { userId, active: true, OR: [{ writeForEveryNote: true }, { id: { in: sharedTo } }] },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const rank = (id: string) => (sharedTo.includes(id) ? sharedTo.indexOf(id) : sharedTo.length);
  return rows.sort((a, b) => rank(a.id) - rank(b.id)).map(toChannel);
}
