import { forgetKnownApiKeys } from "@/lib/api-keys/authenticate-api-key.ts";
import { db } from "@/lib/db/client.ts";
import { ApiError, notFound } from "@/lib/http/errors.ts";
import { log } from "@/lib/log.ts";
import { AUDIO_STORES } from "@/lib/note-audio/audio-store.ts";
import { countNotes } from "@/lib/notes/store/owned-note.ts";
import { deletePosts } from "@/lib/posts/store/post-writes.ts";

/**
 * Deletes a user and everything of theirs: every kept recording in every store (whichever was
 * configured when each was kept), then, in one transaction, the rows that do not cascade from the
 * user and the user row (sessions, keys, notes, workflows, dictionary, channels, presets… cascade).
 * `confirm` (the account's email, typed again) is checked when given (the API); the admin CLI names the user itself.
 */
export async function deleteAccount({ userId, confirm }: { userId: string; confirm?: string }): Promise<{ email: string; notes: number }> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { email: true, apiKeys: { select: { id: true } } } });
  if (!user) throw notFound("The account");
  if (confirm !== undefined && confirm.trim().toLowerCase() !== user.email.toLowerCase()) {
    throw new ApiError("validation_failed", "Type your account's email to confirm the deletion (case and surrounding spaces do not matter).", {
      details: [{ path: "confirm", message: "is not this account's email" }],
    });
  }
  const notes = await countNotes({ userId });
  // Recordings first: a failure leaves the account to delete again, never recordings of nobody.
  for (const store of AUDIO_STORES) await store.removeUser(userId);
  await prisma.$transaction(async (tx) => {
    // Content items refer to channels and presets ON DELETE RESTRICT. The cascade from users alone
    // passes today on PostgreSQL and PGlite (tests/api/account-delete.test.ts), but that rests on the
    // order the cascades fire; deleting the items first does not.
    await deletePosts({ userId, tx });
    // Tables that carry user_id without a foreign key to users.
    await tx.variantRequest.deleteMany({ where: { userId } });
    // Rate-limit counters are keyed "<limit>:<user or key id>"; they would expire, but they name the user.
    const ids = [userId, ...user.apiKeys.map((k) => k.id)];
    await tx.rateLimit.deleteMany({ where: { OR: ids.map((id) => ({ key: { endsWith: `:${id}` } })) } });
    await tx.user.delete({ where: { id: userId } });
  });
  // Its keys stop working at once in this process too (others forget them within half a second).
  forgetKnownApiKeys();
  log.info("account deleted", { user_id: userId, notes });
  return { email: user.email, notes };
}
