import { db } from "@/lib/db/client.ts";
import { pageTake, paginate } from "@/lib/db/paginate.ts";
import { decodeCursor, encodeCursor } from "@/lib/http/cursor.ts";
import { presentDelivery, withAttempts } from "@/lib/webhooks/deliveries/present-delivery.ts";
import { findOwnEndpoint } from "@/lib/webhooks/endpoints/own-endpoint.ts";

const isId = (key: string) => /^[0-9a-f-]{36}$/.test(key);

/** The endpoint's delivery log, newest first, each delivery with its attempts. */
export async function listDeliveries({ userId, id, input }: { userId: string; id: string; input: { limit: number; cursor?: string } }) {
  await findOwnEndpoint({ userId, id });
  const prisma = await db();
  const rows = await prisma.webhookDelivery.findMany({
    where: { endpointId: id, ...(input.cursor && { id: { lt: decodeCursor(input.cursor, isId) } }) },
    orderBy: { id: "desc" },
    take: pageTake(input.limit),
    include: withAttempts,
  });
  const { page, nextCursor } = paginate(rows, input.limit, (last) => encodeCursor(last.id));
  return { deliveries: page.map(presentDelivery), next_cursor: nextCursor };
}
