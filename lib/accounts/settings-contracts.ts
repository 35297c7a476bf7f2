import { defineOperation, pathsOf, type ApiArea } from "@/lib/openapi/operation.ts";
import { Settings, UpdateSettingsInput } from "@/lib/accounts/schemas.ts";

const tag = "Settings";

export const getSettings = defineOperation({
  method: "get",
  path: "/api/v1/settings",
  id: "getSettings",
  tag,
  summary: "Read your settings",
  description:
    "Your settings: the language of your recordings (`auto`: detected in each one), what this server's " +
    "recognizer can do for it (`recognizer.language_supported`; `hint` says what to install otherwise), and the " +
    "room your recordings take here (`audio_storage`: bytes kept, and the quota when the server sets one).",
  scope: "transcribe",
  responses: { 200: { description: "Your settings.", schema: Settings } },
});

export const updateSettings = defineOperation({
  method: "patch",
  path: "/api/v1/settings",
  id: "updateSettings",
  tag,
  summary: "Change your settings",
  description:
    "Sets the language of your recordings: uploads that name no `language` are recognized in it. A language the " +
    "recognizer cannot do is still saved (it is what you speak): those uploads are refused with 422 " +
    "language_unsupported until a multilingual model is installed — never English words for other speech. With " +
    "the automatic model download (TRANSCRIBE_ENGINE=auto), setting a language other than English fetches the " +
    "multilingual whisper model `base` in the background; new recordings use it once it is in.",
  scope: "transcribe",
  body: UpdateSettingsInput,
  responses: { 200: { description: "Your settings as they are now.", schema: Settings } },
});

export const settingsArea: ApiArea = {
  tag: { name: tag, description: "Your preferences: the language you speak in your recordings; and the room your recordings take." },
  paths: pathsOf(getSettings, updateSettings),
  schemas: [Settings, UpdateSettingsInput],
};
