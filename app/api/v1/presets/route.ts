import { withOperation } from "@/lib/api/with-operation.ts";
import { json } from "@/lib/http/respond.ts";
import * as api from "@/lib/presets/contracts.ts";
import { createPreset, listPresets } from "@/lib/presets/preset-store.ts";

// GET /api/v1/presets – the built-in presets, then yours
export const GET = withOperation(api.listPresets, async ({ user }) => {
  return json({ presets: await listPresets({ userId: user.id }) });
});

// POST /api/v1/presets – a preset of your own
export const POST = withOperation(api.createPreset, async ({ user, body }) => {
  return json({ preset: await createPreset({ userId: user.id, input: body }) }, { status: 201 });
});
