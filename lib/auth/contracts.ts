import { defineOperation, idParameter, pathsOf, type ApiArea } from "@/lib/openapi/operation.ts";
import { PairingCode, SignedInDevice, SignedInDeviceList } from "@/lib/auth/schemas.ts";

const tag = "Devices";
const SESSION_ONLY = "The request carries an API key; only the app's signed-in session can do this.";

export const createPairingCode = defineOperation({
  method: "post",
  path: "/api/v1/pairing-codes",
  id: "createPairingCode",
  tag,
  summary: "Add a phone",
  description:
    "Makes a one-time code that signs another device (a phone) in to your account with a session of its own, no password " +
    "typed there: the app shows `url` as a QR code; the phone opens it (or types `code` at /pair). The code works once, within " +
    "5 minutes, for this account only. Only at a secure address (https, or this computer itself): at a plain http one the phone " +
    "could not record, and both making and using a code are 403 secure_address_required. Only the app's session can make one.",
  scope: "transcribe",
  responses: { 201: { description: "The code and its link.", schema: PairingCode } },
  errors: {
    session_required: SESSION_ONLY,
    secure_address_required: "This server's public address is plain http to another computer (see docs/phone.md).",
    rate_limited: "More than RATE_LIMIT_PAIRING_PER_HOUR codes this hour.",
  },
});

export const listSignedInDevices = defineOperation({
  method: "get",
  path: "/api/v1/sessions",
  id: "listSignedInDevices",
  tag,
  summary: "Signed-in devices",
  description: "The browsers and phones signed in to your account, newest first, with the one asking marked `current`. Only the app's session can list them.",
  scope: "transcribe",
  responses: { 200: { description: "The devices.", schema: SignedInDeviceList } },
  errors: { session_required: SESSION_ONLY },
});

export const signOutDevice = defineOperation({
  method: "delete",
  path: "/api/v1/sessions/{id}",
  id: "signOutDevice",
  tag,
  summary: "Sign a device out",
  description: "Ends one of your sessions at once: that device is signed out (its recordings not yet sent stay on it until someone signs in there again).",
  scope: "transcribe",
  parameters: idParameter("The session's id, from GET /api/v1/sessions."),
  responses: { 204: { description: "Signed out. No body." } },
  errors: { session_required: SESSION_ONLY, not_found: "None of your sessions has this id." },
});

export const devicesArea: ApiArea = {
  tag: { name: tag, description: "Where you are signed in: add a phone with a one-time code, see your signed-in devices, sign one out." },
  schemas: [PairingCode, SignedInDevice, SignedInDeviceList],
  paths: pathsOf(createPairingCode, listSignedInDevices, signOutDevice),
};
