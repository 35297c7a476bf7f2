import { z } from "zod";

export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ message: "must be an email address" }));

export const PasswordSchema = z
  .string()
  .min(10, "must be at least 10 characters")
  .max(256, "must be at most 256 characters");

export const CreateUserInput = z.strictObject({
  email: EmailSchema,
  password: PasswordSchema,
  name: z.string().trim().min(1).max(100).optional(),
});
export type CreateUserInput = z.input<typeof CreateUserInput>;

/** A spoken language: an ISO 639-1 (or 639-3) code, or "auto" to detect it in each recording. */
export const LanguageSetting = z
  .string()
  .regex(/^(auto|[a-z]{2,3})$/, 'must be "auto" or an ISO 639-1 code such as de')
  .meta({ description: '"auto" (detect it in each recording) or an ISO 639-1 code such as en, de, es, fr, ja.', example: "de" });

export const Settings = z
  .object({
    language: LanguageSetting.meta({ description: "The language of your recordings, used when an upload names none." }),
    recognizer: z
      .object({
        languages: z.union([z.literal("any"), z.array(z.string())]).meta({ description: '"any", or the only languages this server\'s recognizer knows.' }),
        hint: z.string().nullable().meta({ description: "What to install for other languages, when it knows only some." }),
        language_supported: z.boolean().meta({ description: "Whether your language setting can be recognized here now." }),
      })
      .meta({ description: "What this server's speech recognizer can do (it may change when a model is installed)." }),
    audio_storage: z
      .object({
        used_bytes: z.number().int().min(0).meta({ description: "Bytes of audio this account keeps here: every note's kept recording, and live recordings not yet made notes of." }),
        quota_bytes: z.number().int().positive().nullable().meta({ description: "How much it may keep (AUDIO_QUOTA_MB); null: no quota. At it, uploads that keep their audio and live appends are refused with 413 audio_quota_exceeded." }),
      })
      .meta({ description: "The room your recordings take on this server." }),
  })
  .meta({ id: "Settings" });
export type Settings = z.output<typeof Settings>;

export const UpdateSettingsInput = z.strictObject({ language: LanguageSetting }).meta({ id: "UpdateSettingsInput" });

export const DeleteAccountInput = z
  .strictObject({
    confirm: z.string().max(254).meta({ description: "Your account's email, typed again: the confirmation that you mean it. Compared without regard to letter case or surrounding spaces (a phone keyboard may capitalise the first letter)." }),
  })
  .meta({ id: "DeleteAccountInput" });
export type DeleteAccountInput = z.output<typeof DeleteAccountInput>;

/** What signing up answers the form: ok, or why not (per field where a field is wrong). */
export type RegisterResult = { ok: true } | { ok: false; code: string; message: string; fields?: Record<string, string> };

export const Invitation = z
  .object({
    url: z.string().meta({ description: "The invitation link: opened, it lets one person make an account here. Shown only in this answer.", example: "https://notes.example.com/sign-up?invitation=Yv3k…" }),
    expires_at: z.string().meta({ description: "When the link stops working (7 days after it was made), ISO 8601." }),
  })
  .meta({ id: "Invitation" });
