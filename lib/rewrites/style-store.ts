import { db } from "@/lib/db/client.ts";
import type { RewriteStyle as StyleRow } from "@/lib/db/generated/client.ts";
import { ApiError, notFound } from "@/lib/http/errors.ts";
import { BUILT_IN_STYLES, builtInStyle } from "@/lib/rewrites/built-in-styles.ts";
import { STYLES_MAX, type CreateRewriteStyleInput, type RewriteStyle, type UpdateRewriteStyleInput } from "@/lib/rewrites/schemas.ts";
import type { RewriteStyleSpec } from "@/lib/rewrites/write-rewrite.ts";
import { writerFor } from "@/lib/writer/providers.ts";

// Rewrite styles: the built-in ones (code) and each person's own (rows, owner only).

const own = (row: StyleRow, writer: boolean): RewriteStyle => ({
  id: row.id,
  built_in: false,
  name: row.name,
  instructions: row.instructions,
  needs_writer: true,
  available: writer,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/** The built-in styles, then the person's own; `available` says which can be written now. */
export async function listRewriteStyles({ userId }: { userId: string }): Promise<{ styles: RewriteStyle[]; writer_configured: boolean }> {
  const prisma = await db();
  const writer = writerFor("rewrites") === "model";
  const rows = await prisma.rewriteStyle.findMany({ where: { userId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const builtIn = BUILT_IN_STYLES.map((s): RewriteStyle => ({
    id: s.id,
    built_in: true,
    name: s.name,
    instructions: s.instructions,
    needs_writer: !s.offline,
    available: s.offline || writer,
    created_at: null,
    updated_at: null,
  }));
  return { styles: [...builtIn, ...rows.map((row) => own(row, writer))], writer_configured: writer };
}

export async function createRewriteStyle({ userId, input }: { userId: string; input: CreateRewriteStyleInput }): Promise<RewriteStyle> {
  const prisma = await db();
  const row = await prisma.$transaction(async (tx) => {
    // One at a time per person, so two creates at the limit cannot both pass the count.
    await tx.$executeRaw`SELECT 1 FROM "users" WHERE "id" = ${userId} FOR UPDATE`;
    if ((await tx.rewriteStyle.count({ where: { userId } })) >= STYLES_MAX) {
      throw new ApiError("rewrite_style_limit_reached", `You have ${STYLES_MAX} rewrite styles, the most there can be; delete one first.`);
    }
    return tx.rewriteStyle.create({ data: { userId, name: input.name, instructions: input.instructions } });
  });
  return own(row, writerFor("rewrites") === "model");
}

const readOnly = () => new ApiError("rewrite_style_read_only", "Built-in rewrite styles cannot be changed; create your own instead.");

export async function updateRewriteStyle({ userId, id, input }: { userId: string; id: string; input: UpdateRewriteStyleInput }): Promise<RewriteStyle> {
  if (builtInStyle(id)) throw readOnly();
  const prisma = await db();
  const { count } = await prisma.rewriteStyle.updateMany({ where: { id, userId }, data: input });
  if (!count) throw notFound(`The rewrite style ${id}`);
  return own(await prisma.rewriteStyle.findFirstOrThrow({ where: { id, userId } }), writerFor("rewrites") === "model");
}

/** Deletes one of the person's styles; rewrites written with it keep its name. */
export async function deleteRewriteStyle({ userId, id }: { userId: string; id: string }): Promise<RewriteStyle> {
  if (builtInStyle(id)) throw readOnly();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const row = await tx.rewriteStyle.findFirst({ where: { id, userId } });
    if (!row) throw notFound(`The rewrite style ${id}`);
    await tx.rewriteStyle.delete({ where: { id } });
    return own(row, writerFor("rewrites") === "model");
  });
}

/** The style a rewrite asks for: a built-in id, or one of the person's own (404 otherwise). */
export async function resolveRewriteStyle({ userId, style }: { userId: string; style: string }): Promise<RewriteStyleSpec & { styleId: string | null }> {
  const builtIn = builtInStyle(style);
  if (builtIn) return { style: builtIn.id, name: builtIn.name, instructions: builtIn.instructions, styleId: null };
  const prisma = await db();
  const row = await prisma.rewriteStyle.findFirst({ where: { id: style, userId } });
  if (!row) throw notFound(`The rewrite style ${style}`);
  return { style: "custom", name: row.name, instructions: row.instructions, styleId: row.id };
}
