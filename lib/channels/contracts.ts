import { defineOperation, idParameter } from "@/lib/openapi/operation.ts";
import { Channel, ChannelDeleteResult, ChannelList, ChannelResult, CreateChannelInput, UpdateChannelInput } from "@/lib/channels/schemas.ts";

// Channels are documented in the Content area (lib/posts/contracts.ts), which lists these.

export const listChannels = defineOperation({
  method: "get",
  path: "/api/v1/channels",
  id: "listChannels",
  tag: "Content",
  summary: "List channels",
  description: "Your publishing destinations, oldest first.",
  scope: "content:read",
  responses: { 200: { description: "Your channels.", schema: ChannelList } },
});

export const createChannel = defineOperation({
  method: "post",
  path: "/api/v1/channels",
  id: "createChannel",
  tag: "Content",
  summary: "Add a channel",
  description:
    "A destination: a platform (linkedin, x, threads, bluesky, mastodon, instagram, facebook, newsletter, blog, other) " +
    "and your name for it. It never takes a token, password or other credential (unknown fields are refused).",
  scope: "content:write",
  body: CreateChannelInput,
  responses: { 201: { description: "Created.", schema: ChannelResult } },
});

export const getChannel = defineOperation({
  method: "get",
  path: "/api/v1/channels/{id}",
  id: "getChannel",
  tag: "Content",
  summary: "Read a channel",
  description: "One of your channels.",
  scope: "content:read",
  parameters: idParameter("The channel's id."),
  responses: { 200: { description: "The channel.", schema: ChannelResult } },
  errors: { not_found: "You have no channel with this id." },
});

export const updateChannel = defineOperation({
  method: "patch",
  path: "/api/v1/channels/{id}",
  id: "updateChannel",
  tag: "Content",
  summary: "Update a channel",
  description: "Rename it, change its platform, or (de)activate it. Variants can be made only for active channels.",
  scope: "content:write",
  parameters: idParameter("The channel's id."),
  body: UpdateChannelInput,
  responses: { 200: { description: "The channel after the update.", schema: ChannelResult } },
  errors: { not_found: "You have no channel with this id." },
});

export const deleteChannel = defineOperation({
  method: "delete",
  path: "/api/v1/channels/{id}",
  id: "deleteChannel",
  tag: "Content",
  summary: "Delete a channel",
  description: "Deletes a channel no variant was made for; otherwise deactivate it.",
  scope: "content:write",
  parameters: idParameter("The channel's id."),
  responses: { 200: { description: "Deleted; the body holds the channel as it was.", schema: ChannelDeleteResult } },
  errors: { not_found: "You have no channel with this id.", channel_in_use: "Variants were made for this channel." },
});

export const CHANNEL_OPERATIONS = [listChannels, createChannel, getChannel, updateChannel, deleteChannel];
export const CHANNEL_SCHEMAS = [CreateChannelInput, UpdateChannelInput, Channel, ChannelResult, ChannelList, ChannelDeleteResult];
