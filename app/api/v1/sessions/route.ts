import { withOperation } from "@/lib/api/with-operation.ts";
import { requireSession } from "@/lib/auth/require-session.ts";
import { parseCookieHeader, sessionTokenFrom } from "@/lib/auth/session-cookie.ts";
import { listSignedInDevices } from "@/lib/auth/signed-in-devices.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/auth/contracts.ts";

// GET /api/v1/sessions – the devices signed in to your account (the asking one marked current)
export const GET = withOperation(api.listSignedInDevices, async ({ req, user, key }) => {
  requireSession(key);
  const cookies = parseCookieHeader(req.headers.get("cookie"));
  const devices = await listSignedInDevices({ userId: user.id, sessionToken: sessionTokenFrom((name) => cookies.get(name)) });
  return json({
    sessions: devices.map((d) => ({ id: d.id, device: d.device, paired: d.paired, created_at: d.createdAt.toISOString(), expires_at: d.expires.toISOString(), current: d.current })),
  });
});
