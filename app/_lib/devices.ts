import { client, ok, type Schemas } from "@/app/_lib/api-client.ts";

// Who may use this account and this Voicedraft: invitations (the owner's), pairing a phone, and the
// devices signed in, through the generated client.

export type Invitation = Schemas["Invitation"];

export const createInvitation = () => ok(client.POST("/api/v1/invitations"));

export type PairingCode = Schemas["PairingCode"];
export type SignedInDevice = Schemas["SignedInDevice"];

export const createPairingCode = () => ok(client.POST("/api/v1/pairing-codes"));
export const listSignedInDevices = async () => (await ok(client.GET("/api/v1/sessions"))).sessions;
export const signOutDevice = (id: string) => ok(client.DELETE("/api/v1/sessions/{id}", { params: { path: { id } } }));

/** Whether a page at `url` can be opened only on this computer (localhost): a phone cannot reach it. */
export const onlyOnThisComputer = (url: string) => /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(new URL(url).hostname) || new URL(url).hostname.endsWith(".localhost");
