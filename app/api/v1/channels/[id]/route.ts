import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/channels/contracts.ts";
import { deleteChannel, getChannel, updateChannel } from "@/lib/channels/channel-store.ts";

// GET /api/v1/channels/{id} – one of your channels
export const GET = withOperation(api.getChannel, async ({ params, user }) => {
  return json({ channel: await getChannel({ userId: user.id, id: params.id }) });
});

// PATCH /api/v1/channels/{id} – rename, change platform, activate or deactivate
export const PATCH = withOperation(api.updateChannel, async ({ params, user, body }) => {
  return json({ channel: await updateChannel({ userId: user.id, id: params.id, input: body }) });
});

// DELETE /api/v1/channels/{id} – delete a channel no variant uses
export const DELETE = withOperation(api.deleteChannel, async ({ params, user }) => {
  return json({ deleted: await deleteChannel({ userId: user.id, id: params.id }) });
});
