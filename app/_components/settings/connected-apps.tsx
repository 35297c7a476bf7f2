"use client";

import { PlugZap } from "lucide-react";
import { useTransition } from "react";
import { Button, EmptyState, LocalTime } from "@/app/_ui/index.ts";
import styles from "./connected-apps.module.css";

export type ConnectedAppView = { id: string; name: string; scopes: string[]; allowedAt: string | null; lastUsedAt: string | null };

function AppCard({ app, revoke }: { app: ConnectedAppView; revoke: (id: string) => Promise<void> }) {
  const [pending, startTransition] = useTransition();
  return (
    <li className={`card ${styles.app}`} data-testid="connected-app">
      <span className={styles.name}>{app.name}</span>
      <ul className={styles.scopes} aria-label={`What ${app.name} may do`}>
        {app.scopes.map((words) => (
          <li key={words}>{words}</li>
        ))}
      </ul>
      <p className={styles.when}>
        {app.allowedAt && (
          <>
            Allowed <LocalTime iso={app.allowedAt} time={false} />
          </>
        )}
        {" · "}
        {app.lastUsedAt ? (
          <>
            last used <LocalTime iso={app.lastUsedAt} />
          </>
        ) : (
          "not used yet"
        )}
      </p>
      <Button
        variant="danger"
        block
        disabled={pending}
        onClick={() => {
          if (confirm(`Disconnect ${app.name}? It can no longer reach your notes; to use it again, connect it again.`)) startTransition(() => revoke(app.id));
        }}
      >
        {pending ? "Disconnecting…" : "Disconnect"}
      </Button>
    </li>
  );
}

/** The apps a person allowed, each with Disconnect; or how to connect one. */
export function ConnectedAppsList({ apps, revoke }: { apps: ConnectedAppView[]; revoke: (id: string) => Promise<void> }) {
  if (!apps.length)
    return (
      <EmptyState icon={<PlugZap size={28} />} title="No apps connected">
        Add the address above to your assistant; once you allow it, it shows here.
      </EmptyState>
    );
  return (
    <ul className={styles.apps} aria-label="Connected apps">
      {apps.map((app) => (
        <AppCard key={app.id} app={app} revoke={revoke} />
      ))}
    </ul>
  );
}
