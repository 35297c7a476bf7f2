import { createInvitation } from "@/lib/accounts/create-invitation.ts";
import { withOperation } from "@/lib/api/with-operation.ts";
import { requireSession } from "@/lib/auth/require-session.ts";
import { publicOrigin } from "@/lib/http/public-origin.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/accounts/contracts.ts";

// POST /api/v1/invitations – the owner makes an invitation link (single use, 7 days)
export const POST = withOperation(api.createInvitation, async ({ req, user, key }) => {
  requireSession(key);
  const { url, expiresAt } = await createInvitation({ userId: user.id, origin: publicOrigin(req) });
  return json({ url, expires_at: expiresAt.toISOString() }, { status: 201 });
});
