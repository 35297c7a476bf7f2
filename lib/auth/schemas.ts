import { z } from "zod";

export const PairingCode = z
  .object({
    code: z.string().meta({ description: "The one-time code, to type on the phone at /pair if the QR code cannot be scanned.", example: "K7QF-3MZP" }),
    url: z.string().meta({ description: "The link the QR code holds: the phone opens it and is signed in (the code is after `#`).", example: "https://notes.example.com/pair#K7QF-3MZP" }),
    expires_at: z.string().meta({ description: "When the code stops working (5 minutes after it was made), ISO 8601." }),
  })
  .meta({ id: "PairingCode" });

export const SignedInDevice = z
  .object({
    id: z.string().meta({ description: "The session's id (not its secret): DELETE /api/v1/sessions/{id} signs the device out." }),
    device: z.string().nullable().meta({ description: "What the device is, from its browser: \"Chrome on Android\"; null when it did not say.", example: "Chrome on Android" }),
    paired: z.boolean().meta({ description: "Signed in by a pairing code from another device (Settings → Add a phone), not a password." }),
    created_at: z.string().meta({ description: "When it signed in, ISO 8601." }),
    expires_at: z.string().meta({ description: "When the session ends unless used (it is extended as it is used), ISO 8601." }),
    current: z.boolean().meta({ description: "This is the session of the request itself." }),
  })
  .meta({ id: "SignedInDevice" });

export const SignedInDeviceList = z.object({ sessions: z.array(SignedInDevice) }).meta({ id: "SignedInDeviceList" });
