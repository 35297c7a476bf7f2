import { db } from "@/lib/db/client.ts";
import type { Prisma, WebhookEndpoint } from "@/lib/db/generated/client.ts";
import type { Db } from "@/lib/db/types.ts";
import { notFound } from "@/lib/http/errors.ts";

// Ownership of a webhook endpoint, in one place: every query of one of a person's endpoints (or of
// its deliveries) goes through ownEndpoint, so another user's id is a missing one (404).

/** The query of one of the person's endpoints. */
export function ownEndpoint(userId: string, id: string): Prisma.WebhookEndpointWhereInput {
  return { id, userId };
}

/** One of the person's endpoints; 404 for a missing id and for another user's. */
export async function findOwnEndpoint({ userId, id, tx }: { userId: string; id: string; tx?: Db }): Promise<WebhookEndpoint> {
  const client = tx ?? (await db());
  const row = await client.webhookEndpoint.findFirst({ where: ownEndpoint(userId, id) });
  if (!row) throw notFound(`The webhook ${id}`);
  return row;
}
