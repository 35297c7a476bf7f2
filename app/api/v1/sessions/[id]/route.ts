import { withOperation } from "@/lib/api/with-operation.ts";
import { requireSession } from "@/lib/auth/require-session.ts";
import { signOutDevice } from "@/lib/auth/signed-in-devices.ts";
import * as api from "@/lib/auth/contracts.ts";

// DELETE /api/v1/sessions/{id} – sign one of your devices out
export const DELETE = withOperation(api.signOutDevice, async ({ params, user, key }) => {
  requireSession(key);
  await signOutDevice({ userId: user.id, id: params.id });
  return new Response(null, { status: 204 });
});
