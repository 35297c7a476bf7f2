import { z } from "zod";
import { NAME_CHARS, NAME_CHARS_MESSAGE } from "@/lib/http/names.ts";
import type { Channel as ChannelRow } from "@/lib/db/generated/client.ts";
import { defaultPresetId, PLATFORMS, type Platform } from "@/lib/channels/platforms.ts";

// The platforms and their rules are lib/channels/platforms.ts; re-exported for callers.
export { PLATFORMS, type Platform };


const ChannelName = z
  .string()
  .transform((s) => s.normalize("NFC").trim())
  .pipe(z.string().min(1, "must not be empty").max(100, "must be at most 100 characters").regex(NAME_CHARS, NAME_CHARS_MESSAGE))
  .meta({ description: "Your name for the destination, 1–100 characters.", example: "My LinkedIn" });
const WriteForEveryNote = z.boolean().meta({
  description:
    "Default false. When true (and the channel is active), a post for it is written from every new note as soon as the note's text is ready, " +
    "before you ask for posts; channels your recent notes were shared to are written for too.",
});
const PlatformField = z.enum(PLATFORMS).meta({ description: "Where the variant will be posted; sets its length limit." });

// Strict: a channel never carries a token, password or any other third-party credential.
export const CreateChannelInput = z
  .strictObject({
    platform: PlatformField,
    name: ChannelName,
    active: z.boolean().optional().meta({ description: "Default true. Variants can only be made for active channels." }),
    write_for_every_note: WriteForEveryNote.optional(),
  })
  .meta({ id: "ChannelInput" });
export type CreateChannelInput = z.output<typeof CreateChannelInput>;

export const UpdateChannelInput = z
  .strictObject({ platform: PlatformField.optional(), name: ChannelName.optional(), active: z.boolean().optional(), write_for_every_note: WriteForEveryNote.optional() })
  .refine((v) => Object.keys(v).length > 0, "give at least one of platform, name, active, write_for_every_note")
  .meta({ id: "ChannelUpdate" });
export type UpdateChannelInput = z.output<typeof UpdateChannelInput>;

export const Channel = z
  .object({
    id: z.string(),
    platform: z.enum(PLATFORMS),
    name: z.string(),
    active: z.boolean(),
    write_for_every_note: WriteForEveryNote,
    default_preset_id: z.string().meta({
      description:
        "The built-in preset that suits the platform, to preselect: x builtin-thread (one post, a thread when long); " +
        "bluesky, threads, mastodon builtin-short; instagram builtin-caption; newsletter, blog builtin-article; others builtin-standard.",
    }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Channel" });
export type Channel = z.output<typeof Channel>;

export const ChannelResult = z.object({ channel: Channel }).meta({ id: "ChannelResult" });
export const ChannelDeleteResult = z.object({ deleted: Channel }).meta({ id: "ChannelDeleteResult" });
export const ChannelList = z.object({ channels: z.array(Channel) }).meta({ id: "ChannelList" });

export function toChannel(row: ChannelRow): Channel {
  return {
    id: row.id,
    platform: row.platform as Platform,
    name: row.name,
    active: row.active,
    write_for_every_note: row.writeForEveryNote,
    default_preset_id: defaultPresetId(row.platform as Platform),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
