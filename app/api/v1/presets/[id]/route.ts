import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/presets/contracts.ts";
import { deletePreset, getPreset, updatePreset } from "@/lib/presets/preset-store.ts";

// GET /api/v1/presets/{id} – a built-in preset or one of yours
export const GET = withOperation(api.getPreset, async ({ params, user }) => {
  return json({ preset: await getPreset({ userId: user.id, id: params.id }) });
});

// PATCH /api/v1/presets/{id} – change one of your presets (built-ins are read-only)
export const PATCH = withOperation(api.updatePreset, async ({ params, user, body }) => {
  return json({ preset: await updatePreset({ userId: user.id, id: params.id, input: body }) });
});

// DELETE /api/v1/presets/{id} – delete one of your presets that no variant uses
export const DELETE = withOperation(api.deletePreset, async ({ params, user }) => {
  return json({ deleted: await deletePreset({ userId: user.id, id: params.id }) });
});
