import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseJson } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { deletePreset, getPreset, updatePreset } from "@/lib/presets/preset-store.ts";
import { UpdatePresetInput } from "@/lib/presets/schemas.ts";

// GET /api/v1/presets/{id} – a built-in preset or one of yours
export const GET = withApiKey<{ id: string }>({ scope: "content:read" }, async ({ params, user }) => {
  return json({ preset: await getPreset({ userId: user.id, id: params.id }) });
});

// PATCH /api/v1/presets/{id} – change one of your presets (built-ins are read-only)
export const PATCH = withApiKey<{ id: string }>({ scope: "content:write" }, async ({ req, params, user }) => {
  const input = await parseJson(req, UpdatePresetInput);
  return json({ preset: await updatePreset({ userId: user.id, id: params.id, input }) });
});

// DELETE /api/v1/presets/{id} – delete one of your presets that no variant uses
export const DELETE = withApiKey<{ id: string }>({ scope: "content:write" }, async ({ params, user }) => {
  return json({ deleted: await deletePreset({ userId: user.id, id: params.id }) });
});
