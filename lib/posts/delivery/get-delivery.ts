import { db } from "@/lib/db/client.ts";
import { notFound } from "@/lib/http/errors.ts";
import { toDelivery, type Delivery } from "@/lib/posts/schemas.ts";

/** One of the user's delivery records (the webhooks' content.delivery.recorded carries it). */
export async function getDelivery({ userId, id }: { userId: string; id: string }): Promise<Delivery> {
  const prisma = await db();
  const row = await prisma.contentDelivery.findFirst({ where: { id, userId } });
  if (!row) throw notFound(`The delivery ${id}`);
  return toDelivery(row);
}
