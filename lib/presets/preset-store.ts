import { db } from "@/lib/db/client.ts";
import type { Db } from "@/lib/db/types.ts";
import { ApiError, notFound } from "@/lib/http/errors.ts";
import { countPosts } from "@/lib/posts/store/post-lists.ts";
import { presetData, toPreset, type CreatePresetInput, type Preset, type UpdatePresetInput } from "@/lib/presets/schemas.ts";

// Built-in presets (user_id NULL, seeded by the content migration) plus the user's own.
const visibleTo = (userId: string) => ({ OR: [{ userId: null }, { userId }] });

export async function listPresets({ userId }: { userId: string }): Promise<Preset[]> {
  const prisma = await db();
  const rows = await prisma.preset.findMany({
    where: visibleTo(userId),
    orderBy: [{ userId: { sort: "asc", nulls: "first" } }, { createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toPreset);
}

export async function getPreset({ userId, id }: { userId: string; id: string }): Promise<Preset> {
  const prisma = await db();
  const row = await prisma.preset.findFirst({ where: { id, ...visibleTo(userId) } });
  if (!row) throw notFound(`The preset ${id}`);
  return toPreset(row);
}

export async function createPreset({ userId, input }: { userId: string; input: CreatePresetInput }): Promise<Preset> {
  const prisma = await db();
  const row = await prisma.preset.create({
    data: { userId, tone: "neutral", length: "full", format: "single", hashtags: [], ...presetData(input), name: input.name },
  });
  return toPreset(row);
}

async function ownPreset(client: Db, userId: string, id: string) {
  const row = await client.preset.findFirst({ where: { id, ...visibleTo(userId) } });
  if (!row) throw notFound(`The preset ${id}`);
  if (row.userId === null) throw new ApiError("preset_read_only", "Built-in presets cannot be changed; create your own instead.");
  return row;
}

export async function updatePreset({ userId, id, input }: { userId: string; id: string; input: UpdatePresetInput }): Promise<Preset> {
  const prisma = await db();
  await ownPreset(prisma, userId, id);
  return toPreset(await prisma.preset.update({ where: { id }, data: presetData(input) }));
}

/** Deletes one of the user's presets that no variant uses (409 preset_in_use otherwise), in one transaction as deleteChannel. */
export async function deletePreset({ userId, id }: { userId: string; id: string }): Promise<Preset> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const row = await ownPreset(tx, userId, id);
    if (await countPosts(tx, { presetId: id })) {
      throw new ApiError("preset_in_use", "Variants were written with this preset; it cannot be deleted.");
    }
    await tx.preset.delete({ where: { id } });
    return toPreset(row);
  });
}
