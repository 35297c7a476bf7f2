import { withApiKey } from "@/lib/http/with-api-key.ts";
import { parseJson } from "@/lib/http/parse.ts";
import { json } from "@/lib/http/respond.ts";
import { createPreset, listPresets } from "@/lib/presets/preset-store.ts";
import { CreatePresetInput } from "@/lib/presets/schemas.ts";

// GET /api/v1/presets – the built-in presets, then yours
export const GET = withApiKey({ scope: "content:read" }, async ({ user }) => {
  return json({ presets: await listPresets({ userId: user.id }) });
});

// POST /api/v1/presets – a preset of your own
export const POST = withApiKey({ scope: "content:write" }, async ({ req, user }) => {
  const input = await parseJson(req, CreatePresetInput);
  return json({ preset: await createPreset({ userId: user.id, input }) }, { status: 201 });
});
