import { defineOperation, idParameter } from "@/lib/openapi/operation.ts";
import { CreatePresetInput, Preset, PresetDeleteResult, PresetList, PresetResult, UpdatePresetInput } from "@/lib/presets/schemas.ts";

// Presets are documented in the Content area (lib/posts/contracts.ts), which lists these.

export const listPresets = defineOperation({
  method: "get",
  path: "/api/v1/presets",
  id: "listPresets",
  tag: "Content",
  summary: "List presets",
  description:
    "The built-in presets (builtin-standard, builtin-short, builtin-thread, builtin-article, builtin-caption), then yours. A preset " +
    "sets tone, length, single post or thread, hashtags, whether the title leads and whether LinkedIn and Facebook posts end with a line inviting replies.",
  scope: "content:read",
  responses: { 200: { description: "The presets you can use.", schema: PresetList } },
});

export const createPreset = defineOperation({
  method: "post",
  path: "/api/v1/presets",
  id: "createPreset",
  tag: "Content",
  summary: "Create a preset",
  description: "A preset of your own.",
  scope: "content:write",
  body: CreatePresetInput,
  responses: { 201: { description: "Created.", schema: PresetResult } },
});

export const getPreset = defineOperation({
  method: "get",
  path: "/api/v1/presets/{id}",
  id: "getPreset",
  tag: "Content",
  summary: "Read a preset",
  description: "A built-in preset or one of yours.",
  scope: "content:read",
  parameters: idParameter("The preset's id."),
  responses: { 200: { description: "The preset.", schema: PresetResult } },
  errors: { not_found: "No built-in preset and none of yours has this id." },
});

export const updatePreset = defineOperation({
  method: "patch",
  path: "/api/v1/presets/{id}",
  id: "updatePreset",
  tag: "Content",
  summary: "Update a preset",
  description: "Changes one of your presets. Existing variants keep their content until regenerated.",
  scope: "content:write",
  parameters: idParameter("The preset's id."),
  body: UpdatePresetInput,
  responses: { 200: { description: "The preset after the update.", schema: PresetResult } },
  errors: { not_found: "No built-in preset and none of yours has this id.", preset_read_only: "Built-in presets cannot be changed." },
});

export const deletePreset = defineOperation({
  method: "delete",
  path: "/api/v1/presets/{id}",
  id: "deletePreset",
  tag: "Content",
  summary: "Delete a preset",
  description: "Deletes one of your presets that no variant was written with.",
  scope: "content:write",
  parameters: idParameter("The preset's id."),
  responses: { 200: { description: "Deleted; the body holds the preset as it was.", schema: PresetDeleteResult } },
  errors: {
    not_found: "No built-in preset and none of yours has this id.",
    preset_read_only: "Built-in presets cannot be deleted.",
    preset_in_use: "Variants were written with this preset.",
  },
});

export const PRESET_OPERATIONS = [listPresets, createPreset, getPreset, updatePreset, deletePreset];
export const PRESET_SCHEMAS = [CreatePresetInput, UpdatePresetInput, Preset, PresetResult, PresetList, PresetDeleteResult];
