import { createHash, randomBytes } from "node:crypto";
import { db } from "@/lib/db/client.ts";
import { ApiError } from "@/lib/http/errors.ts";

export const INVITATION_DAYS = 7;

export const hashInvitationToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * A new invitation of the owner: a link to the sign-up page that makes one account, within
 * INVITATION_DAYS. Only the owner invites (403 owner_only); the link is shown once (its token's hash is kept).
 */
export async function createInvitation({ userId, origin }: { userId: string; origin: string }): Promise<{ url: string; expiresAt: Date }> {
  const prisma = await db();
  const owner = await prisma.user.findUnique({ where: { id: userId }, select: { isOwner: true } });
  if (!owner?.isOwner) throw new ApiError("owner_only", "Only the owner of this Voicedraft (its first account) can invite people.");
  const token = randomBytes(24).toString("base64url");
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 86_400_000);
  await prisma.invitation.create({ data: { tokenHash: hashInvitationToken(token), createdById: userId, expiresAt } });
  return { url: `${origin}/sign-up?invitation=${token}`, expiresAt };
}
