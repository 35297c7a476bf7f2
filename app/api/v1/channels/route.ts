import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseJson } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { createChannel, listChannels } from "@/lib/channels/channel-store.ts";
import { CreateChannelInput } from "@/lib/channels/schemas.ts";

// GET /api/v1/channels – your publishing destinations
export const GET = withApiKey({ scope: "content:read" }, async ({ user }) => {
  return json({ channels: await listChannels({ userId: user.id }) });
});

// POST /api/v1/channels – add a destination (a platform and a name; never a credential)
export const POST = withApiKey({ scope: "content:write" }, async ({ req, user }) => {
  const input = await parseJson(req, CreateChannelInput);
  return json({ channel: await createChannel({ userId: user.id, input }) }, { status: 201 });
});
