import { env } from "@/lib/env.ts";
import type { Db } from "@/lib/db/types.ts";
import { ApiError } from "@/lib/http/errors.ts";
import type { Admission } from "@/lib/accounts/create-user.ts";
import { hashInvitationToken } from "@/lib/accounts/create-invitation.ts";

/** The sign-up policy (SIGNUP) for an account that is not the first: createUser runs it in its transaction. */
export function admitSignUp(invitation: string | undefined): Admission {
  return async (tx: Db) => {
    const policy = env().SIGNUP;
    if (policy === "open") return {};
    if (policy === "closed") throw new ApiError("sign_up_closed", "This Voicedraft takes no new accounts. Ask the person who runs it.");
    if (!invitation) {
      throw new ApiError("invitation_required", "This Voicedraft is by invitation: ask its owner for an invitation link, and open it to sign up.");
    }
    // Used once: the row is claimed only while unused and unexpired, in the account's transaction.
    const found = await tx.invitation.findUnique({ where: { tokenHash: hashInvitationToken(invitation) }, select: { id: true } });
    const claimed = found
      ? await tx.invitation.updateMany({ where: { id: found.id, usedAt: null, expiresAt: { gt: new Date() } }, data: { usedAt: new Date() } })
      : { count: 0 };
    if (!found || claimed.count !== 1) {
      throw new ApiError("invitation_invalid", "This invitation link was used already or has expired. Ask the owner for a new one.");
    }
    return { invitationId: found.id };
  };
}
