import { DeleteAccountInput, Invitation } from "@/lib/accounts/schemas.ts";
import { defineOperation, pathsOf, type ApiArea } from "@/lib/openapi/operation.ts";

const tag = "Account";

export const exportUserData = defineOperation({
  method: "get",
  path: "/api/v1/export",
  id: "exportUserData",
  tag,
  summary: "Export everything",
  description:
    "A ZIP of all your data, streamed as it is made (the download starts at once, whatever the account's size):\n\n" +
    "- `notes/<yyyy-mm-dd>-<slug>-<id8>.md` per note: YAML front matter (`title`: the note's title or its first " +
    "sentence, `date`: when it was recorded, `duration` in seconds, `language`, `id`), then the clean text (your edit, " +
    "else the AI-optimized text, else the recognized text), then `## Recognized text` with the recognizer's own text;\n" +
    "- `audio/<same name>.webm` for each note whose recording is kept (stored uncompressed in the ZIP: Opus already is);\n" +
    "- `dictionary.csv`: `misspelling,correct_spelling`, RFC 4180 quoting; a value starting with = + - @ (a spreadsheet formula) is prefixed with an apostrophe;\n" +
    "- `posts/<yyyy-mm-dd>-<slug>-<id8>.md` per post (masters and their variants: `channel`, `platform`, `status`, " +
    "then the body).\n\n" +
    "`id8` is the last 8 characters of the id. A failure after the download began ends it early (the ZIP is then " +
    "incomplete: its central directory is missing), so check that the archive opens.",
  scope: "transcribe",
  responses: {
    200: {
      description: 'The archive, as an attachment: `Content-Disposition: attachment; filename="voicedraft-export-YYYY-MM-DD.zip"`.',
      alternatives: { "application/zip": { type: "string", format: "binary" } },
      headers: ["Content-Disposition"],
    },
  },
});

export const deleteAccount = defineOperation({
  method: "delete",
  path: "/api/v1/account",
  id: "deleteAccount",
  tag,
  summary: "Delete your account",
  description:
    "Deletes your account and everything in it, at once and for good: notes, kept recordings (in every audio store), " +
    "the dictionary, posts, channels, presets, API keys and sessions. Only the app's signed-in session can do it " +
    "(an API key gets 403 session_required), and only with your account's email typed again in `confirm`. Take an " +
    "export first (GET /api/v1/export) if you want to keep anything. The session cookie is cleared.",
  scope: "transcribe",
  body: DeleteAccountInput,
  responses: { 204: { description: "Deleted. No body." } },
  errors: {
    session_required: "The request carries an API key; only the app's session may delete the account.",
    validation_failed: "`confirm` is missing or is not this account's email (details names it), or the body has another field.",
  },
});

export const createInvitation = defineOperation({
  method: "post",
  path: "/api/v1/invitations",
  id: "createInvitation",
  tag,
  summary: "Invite someone",
  description:
    "Makes an invitation link to this Voicedraft. With `SIGNUP=invite` (the default) only the owner (the install's first account) " +
    "invites, and sign-up needs such a link: it makes one account, once, within 7 days. Only the app's signed-in session can make one " +
    "(an API key gets 403 session_required); the link is in this answer only (the server keeps its hash).",
  scope: "transcribe",
  responses: { 201: { description: "The invitation.", schema: Invitation } },
  errors: {
    session_required: "The request carries an API key; only the app's session invites.",
    owner_only: "You are not the owner of this Voicedraft.",
  },
});

export const accountArea: ApiArea = {
  tag: {
    name: tag,
    description: "Your data as a whole: take all of it with you, or delete your account; and inviting people to this Voicedraft.",
  },
  schemas: [DeleteAccountInput, Invitation],
  paths: pathsOf(exportUserData, deleteAccount, createInvitation),
};
