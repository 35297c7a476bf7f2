import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/current-user.ts";
import { listApiKeys } from "@/lib/api-keys/list-api-keys.ts";
import { SCOPES } from "@/lib/api-keys/scopes.ts";
import { createKeyAction, revokeKeyAction } from "@/app/(app)/keys/actions.ts";
import { CreateKeyForm } from "@/app/_components/settings/create-key-form.tsx";
import { KeyScopes } from "@/app/_components/settings/key-scopes.tsx";
import { RevokeKeyButton } from "@/app/_components/settings/revoke-key-button.tsx";

export const metadata: Metadata = { title: "API keys" };

const when = (date: Date | null) => (date ? date.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" }) : "never");

export default async function KeysPage() {
  const user = await requireUser();
  const keys = await listApiKeys({ userId: user.id });
  return (
    <>
      <h1>API keys</h1>
      <p className="muted">Keys are for programs that call the Voicedraft API. This app itself uses your sign-in.</p>
      <CreateKeyForm scopes={[...SCOPES]} create={createKeyAction} />
      <h2>Your keys</h2>
      {keys.length === 0 ? (
        <p>No keys yet.</p>
      ) : (
        <ul className="plain" aria-label="API keys">
          {keys.map((key) => (
            <li key={key.id} className="card">
              <strong>{key.name}</strong> <code>{key.prefix}…</code>
              <KeyScopes name={key.name} scopes={key.scopes} />
              <div className="muted">
                Created {when(key.createdAt)} · last used {when(key.lastUsedAt)}
              </div>
              {key.revokedAt ? (
                <div className="status">Revoked {when(key.revokedAt)}</div>
              ) : (
                <RevokeKeyButton id={key.id} name={key.name} revoke={revokeKeyAction} />
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
