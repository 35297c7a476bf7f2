import type { Metadata } from "next";
import { headers } from "next/headers";
import { ConnectedAppsList } from "@/app/_components/settings/connected-apps.tsx";
import { McpAddress } from "@/app/_components/settings/mcp-address.tsx";
import { requireUser } from "@/lib/auth/current-user.ts";
import { SCOPE_WORDS } from "@/lib/api-keys/scopes.ts";
import { publicOriginOfHeaders } from "@/lib/http/public-origin.ts";
import { listConnectedApps } from "@/lib/oauth/connected-apps.ts";
import { MCP_PATH } from "@/lib/oauth/provider.ts";
import { revokeConnectedAppAction } from "./actions.ts";

export const metadata: Metadata = { title: "Connected apps" };

// Settings → Connected apps: the assistants a person allowed to reach their notes (OAuth), each
// with Disconnect, and the address to give an assistant.
export default async function ConnectedAppsPage() {
  const user = await requireUser();
  const apps = await listConnectedApps({ userId: user.id });
  const address = `${publicOriginOfHeaders(await headers())}${MCP_PATH}`;
  return (
    <>
      <h1>Connected apps</h1>
      <p className="muted">Assistants such as Claude, ChatGPT or VS Code can read your notes and draft posts once you allow them. Posting stays yours.</p>
      <McpAddress address={address} />
      <h2>Apps you allowed</h2>
      <ConnectedAppsList
        apps={apps.map((app) => ({
          id: app.id,
          name: app.name,
          scopes: app.scopes.map((scope) => SCOPE_WORDS[scope]),
          allowedAt: app.allowedAt?.toISOString() ?? null,
          lastUsedAt: app.lastUsedAt?.toISOString() ?? null,
        }))}
        revoke={revokeConnectedAppAction}
      />
    </>
  );
}
