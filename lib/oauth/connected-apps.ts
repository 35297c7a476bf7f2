import { SCOPES, type Scope } from "@/lib/api-keys/scopes.ts";
import { db } from "@/lib/db/client.ts";
import { notFound } from "@/lib/http/errors.ts";

// Settings → Connected apps: the apps a person allowed through the OAuth server (its grants),
// and disconnecting one, which deletes the grant with every code and token made from it, so the
// app's next call to /mcp answers 401 and it has to ask again.

export type ConnectedApp = { id: string; name: string; scopes: Scope[]; allowedAt: Date | null; lastUsedAt: Date | null };
type GrantPayload = { clientId?: string; iat?: number; resources?: Record<string, string> };

// A client known by its metadata document (its client_id an https URL) is not stored here: it is
// named by the host that publishes it, which is what vouches for it.
const metadataHost = (clientId: string) => (clientId.startsWith("https://") ? URL.parse(clientId)?.hostname : undefined);

const live = () => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] });

/** The person's connected apps, newest first. */
export async function listConnectedApps({ userId }: { userId: string }): Promise<ConnectedApp[]> {
  const prisma = await db();
  const grants = await prisma.oAuthRecord.findMany({ where: { model: "Grant", accountId: userId, ...live() }, select: { id: true, payload: true, lastUsedAt: true } });
  const payloads = grants.map((g) => ({ ...g, grant: g.payload as GrantPayload }));
  const clientIds = [...new Set(payloads.map((p) => p.grant.clientId).filter((id): id is string => !!id))];
  const clients = await prisma.oAuthRecord.findMany({ where: { model: "Client", id: { in: clientIds } }, select: { id: true, payload: true } });
  const names = new Map(clients.map((c) => [c.id, (c.payload as { client_name?: string }).client_name]));
  return payloads
    .map(({ id, grant, lastUsedAt }) => {
      const granted = new Set(Object.values(grant.resources ?? {}).flatMap((scope) => scope.split(" ")));
      return {
        id,
        name: (grant.clientId && (names.get(grant.clientId) ?? metadataHost(grant.clientId))) || "An app",
        scopes: SCOPES.filter((s) => granted.has(s)),
        allowedAt: grant.iat ? new Date(grant.iat * 1000) : null,
        lastUsedAt,
      };
    })
    .sort((a, b) => (b.allowedAt?.getTime() ?? 0) - (a.allowedAt?.getTime() ?? 0));
}

/** Disconnects one of the person's apps: its grant and everything issued from it go. */
export async function revokeConnectedApp({ userId, input }: { userId: string; input: { id: string } }): Promise<void> {
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const grant = await tx.oAuthRecord.findFirst({ where: { model: "Grant", id: input.id, accountId: userId }, select: { id: true } });
    if (!grant) throw notFound("The connected app");
    await tx.oAuthRecord.deleteMany({ where: { grantId: grant.id } });
  });
}
