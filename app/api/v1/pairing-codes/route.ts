import { withOperation } from "@/lib/api/with-operation.ts";
import { createPairingCode } from "@/lib/auth/pairing-codes.ts";
import { requireSession } from "@/lib/auth/require-session.ts";
import { publicOrigin } from "@/lib/http/public-origin.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/auth/contracts.ts";

// POST /api/v1/pairing-codes – a one-time code (and its link) that signs a phone in to this account
export const POST = withOperation(api.createPairingCode, async ({ req, user, key }) => {
  requireSession(key);
  const { code, url, expiresAt } = await createPairingCode({ userId: user.id, origin: publicOrigin(req) });
  return json({ code, url, expires_at: expiresAt.toISOString() }, { status: 201 });
});
