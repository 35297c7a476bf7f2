import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/accounts/settings-contracts.ts";
import { getSettings, updateSettings } from "@/lib/accounts/settings.ts";

// GET /api/v1/settings – your settings (the language of your recordings)
export const GET = withOperation(api.getSettings, async ({ user }) => {
  return json(await getSettings({ userId: user.id }));
});

// PATCH /api/v1/settings – change them
export const PATCH = withOperation(api.updateSettings, async ({ user, body }) => {
  return json(await updateSettings({ userId: user.id, input: body }));
});
