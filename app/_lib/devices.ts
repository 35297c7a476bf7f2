import { client, ok, type Schemas } from "@/app/_lib/api-client.ts";

// Who may use this account and this Voicedraft: invitations (the owner's), pairing a phone, and the
// devices signed in, through the generated client.

export type Invitation = Schemas["Invitation"];

export const createInvitation = () => ok(client.POST("/api/v1/invitations"));
