import { deleteAccount } from "@/lib/accounts/delete-account.ts";
import { withOperation } from "@/lib/api/with-operation.ts";
import { requireSession } from "@/lib/auth/require-session.ts";
import { SESSION_COOKIE_NAMES } from "@/lib/auth/session-cookie.ts";
import * as api from "@/lib/accounts/contracts.ts";

// DELETE /api/v1/account – delete your account and everything in it (the app's session, email typed again)
export const DELETE = withOperation(api.deleteAccount, async ({ user, key, body }) => {
  requireSession(key);
  await deleteAccount({ userId: user.id, confirm: body.confirm });
  const headers = new Headers();
  for (const name of SESSION_COOKIE_NAMES) {
    headers.append("Set-Cookie", `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${name.startsWith("__Secure-") ? "; Secure" : ""}`);
  }
  return new Response(null, { status: 204, headers });
});
