import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseJson } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { deleteChannel, getChannel, updateChannel } from "@/lib/channels/channel-store.ts";
import { UpdateChannelInput } from "@/lib/channels/schemas.ts";

// GET /api/v1/channels/{id} – one of your channels
export const GET = withApiKey<{ id: string }>({ scope: "content:read" }, async ({ params, user }) => {
  return json({ channel: await getChannel({ userId: user.id, id: params.id }) });
});

// PATCH /api/v1/channels/{id} – rename, change platform, activate or deactivate
export const PATCH = withApiKey<{ id: string }>({ scope: "content:write" }, async ({ req, params, user }) => {
  const input = await parseJson(req, UpdateChannelInput);
  return json({ channel: await updateChannel({ userId: user.id, id: params.id, input }) });
});

// DELETE /api/v1/channels/{id} – delete a channel no variant uses
export const DELETE = withApiKey<{ id: string }>({ scope: "content:write" }, async ({ params, user }) => {
  return json({ deleted: await deleteChannel({ userId: user.id, id: params.id }) });
});
