import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { db } from "@/lib/db/client.ts";
import { findSession } from "@/lib/auth/sessions.ts";
import { sessionTokenFrom } from "@/lib/auth/session-cookie.ts";

export type CurrentUser = { id: string; email: string; name: string | null; isOwner: boolean };

/**
 * The signed-in user of this page request, or null. Looked up once per request (React's cache):
 * the layout and the page both ask.
 */
export const currentUser = cache(async (): Promise<CurrentUser | null> => {
  const store = await cookies();
  const session = await findSession(sessionTokenFrom((name) => store.get(name)?.value));
  if (!session) return null;
  const prisma = await db();
  return prisma.user.findUnique({ where: { id: session.userId }, select: { id: true, email: true, name: true, isOwner: true } });
});

/** For pages that need a user: the user, or a redirect to the sign-in page. */
export async function requireUser(): Promise<CurrentUser> {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  return user;
}
