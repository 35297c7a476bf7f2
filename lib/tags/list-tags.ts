import type { z } from "zod";
import { db } from "@/lib/db/client.ts";
import { Prisma } from "@/lib/db/generated/client.ts";
import type { Db } from "@/lib/db/types.ts";
import type { Tag } from "@/lib/tags/schemas.ts";

/**
 * The person's tags with how many notes carry each (a recording in parts is one note), most used
 * first; `only`: just that tag (exact spelling), for an answer about one tag.
 */
export async function listTags({ userId, only, tx }: { userId: string; only?: string; tx?: Db }): Promise<z.output<typeof Tag>[]> {
  const prisma = tx ?? (await db());
  const one = only === undefined ? Prisma.empty : Prisma.sql`AND t.tags @> ARRAY[${only}]::text[] AND tag = ${only}`;
  const rows = await prisma.$queryRaw<{ name: string; notes: bigint | number }[]>`
    SELECT tag AS name, count(DISTINCT coalesce('r:' || t.recording_id, t.id)) AS notes
    FROM transcriptions t, unnest(t.tags) AS tag
    WHERE t.user_id = ${userId} AND t.tags <> '{}' ${one}
    GROUP BY tag
    ORDER BY notes DESC, lower(tag), tag`;
  return rows.map((row) => ({ name: row.name, notes: Number(row.notes) }));
}
