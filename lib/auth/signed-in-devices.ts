import { db } from "@/lib/db/client.ts";
import { notFound } from "@/lib/http/errors.ts";
import { hashSessionToken } from "@/lib/auth/sessions.ts";

export type SignedInDevice = { id: string; device: string | null; paired: boolean; createdAt: Date; expires: Date; current: boolean };

/** The account's live sessions, newest first; `current` is the one of `sessionToken` (the asking browser). */
export async function listSignedInDevices({ userId, sessionToken }: { userId: string; sessionToken?: string }): Promise<SignedInDevice[]> {
  const prisma = await db();
  const rows = await prisma.session.findMany({
    where: { userId, expires: { gt: new Date() } },
    orderBy: { createdAt: "desc" },
    select: { id: true, tokenHash: true, device: true, paired: true, createdAt: true, expires: true },
    take: 100,
  });
  const mine = sessionToken ? hashSessionToken(sessionToken) : null;
  return rows.map(({ tokenHash, ...row }) => ({ ...row, current: tokenHash === mine }));
}

/** Ends one of the account's sessions at once (that device is signed out); another account's id is 404. */
export async function signOutDevice({ userId, id }: { userId: string; id: string }): Promise<void> {
  const prisma = await db();
  const { count } = await prisma.session.deleteMany({ where: { id, userId } });
  if (count === 0) throw notFound("The signed-in device");
}
