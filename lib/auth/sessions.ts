import { createHash, randomBytes } from "node:crypto";
import { db } from "@/lib/db/client.ts";

// Browser sessions are rows in the `sessions` table (the Auth.js adapter table): the cookie holds
// only an opaque random token, so signing out or deleting the row ends the session at once. The
// table keeps the token's SHA-256, like API keys, so a copy of the database signs nobody in.
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
// Extend a session's expiry at most once a day, not on every request.
const SESSION_UPDATE_AGE_MS = 24 * 60 * 60 * 1000;

export type BrowserSession = { sessionToken: string; userId: string; expires: Date };

export function hashSessionToken(sessionToken: string): string {
  return createHash("sha256").update(sessionToken).digest("hex");
}

/** A new session; `device` names what it is on, `paired` when a pairing code (not a password) began it. */
export async function createSession({ userId, device = null, paired = false }: { userId: string; device?: string | null; paired?: boolean }): Promise<BrowserSession> {
  const prisma = await db();
  const sessionToken = randomBytes(32).toString("base64url");
  const expires = new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000);
  await prisma.session.create({ data: { tokenHash: hashSessionToken(sessionToken), userId, expires, device: device?.slice(0, 100) ?? null, paired } });
  return { sessionToken, userId, expires };
}

/** The live session for a cookie value, or null (unknown, malformed or expired). */
export async function findSession(sessionToken: string | undefined | null): Promise<BrowserSession | null> {
  if (!sessionToken || sessionToken.length > 200) return null;
  const prisma = await db();
  const found = await prisma.session.findUnique({
    where: { tokenHash: hashSessionToken(sessionToken) },
    select: { userId: true, expires: true },
  });
  if (!found || found.expires.getTime() <= Date.now()) return null;
  return { sessionToken, ...found };
}

/** Slides the expiry forward when the session is older than a day; returns the session as stored. */
export async function touchSession(session: BrowserSession): Promise<BrowserSession> {
  const renewed = new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000);
  if (renewed.getTime() - session.expires.getTime() < SESSION_UPDATE_AGE_MS) return session;
  const prisma = await db();
  await prisma.session.updateMany({ where: { tokenHash: hashSessionToken(session.sessionToken) }, data: { expires: renewed } });
  return { ...session, expires: renewed };
}

export async function deleteSession({ sessionToken }: { sessionToken: string }): Promise<void> {
  const prisma = await db();
  await prisma.session.deleteMany({ where: { tokenHash: hashSessionToken(sessionToken) } });
}
