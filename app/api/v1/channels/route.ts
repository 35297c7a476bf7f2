import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/channels/contracts.ts";
import { createChannel, listChannels } from "@/lib/channels/channel-store.ts";

// GET /api/v1/channels – your publishing destinations
export const GET = withOperation(api.listChannels, async ({ user }) => {
  return json({ channels: await listChannels({ userId: user.id }) });
});

// POST /api/v1/channels – add a destination (a platform and a name; never a credential)
export const POST = withOperation(api.createChannel, async ({ user, body }) => {
  return json({ channel: await createChannel({ userId: user.id, input: body }) }, { status: 201 });
});
