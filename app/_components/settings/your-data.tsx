"use client";

import { Download, Trash2, TriangleAlert } from "lucide-react";
import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApiRequestError, deleteAccount, forgetSavedReads } from "@/app/_lib/api.ts";
import { forgetCachedPages } from "@/app/_lib/service-worker.ts";
import { Button, ButtonLink, EmailAddress, Field, Notice, Sheet } from "@/app/_ui/index.ts";
import styles from "./your-data.module.css";

// Settings → Your data: download everything (GET /api/v1/export), or delete the account
// (DELETE /api/v1/account, the email typed again), then sign out to the sign-in page.

export function YourData({ email }: { email: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div className={styles.section}>
      <p className={styles.text}>All your notes with their recordings, your dictionary and your posts, as one ZIP file.</p>
      {/* A download, not a page: no prefetch (it would build the archive), and Link leaves `download` links to the browser. */}
      <ButtonLink href="/api/v1/export" prefetch={false} download variant="secondary" block>
        <Download size={18} aria-hidden="true" />
        Export everything
      </ButtonLink>
      <p className={styles.text}>Deleting your account removes everything in it, on every device, for good.</p>
      <Button variant="danger" block onClick={() => setOpen(true)}>
        <Trash2 size={18} aria-hidden="true" />
        Delete account…
      </Button>
      <Sheet open={open} onClose={() => setOpen(false)} title="Delete your account?">
        <DeleteAccountForm email={email} onCancel={() => setOpen(false)} />
      </Sheet>
    </div>
  );
}

function DeleteAccountForm({ email, onCancel }: { email: string; onCancel: () => void }) {
  const router = useRouter();
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const matches = typed.trim().toLowerCase() === email.toLowerCase();

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await deleteAccount(typed.trim());
    } catch (err) {
      setError(err instanceof ApiRequestError ? err.message : "Something went wrong; nothing was deleted. Try again.");
      setBusy(false);
      return;
    }
    await Promise.all([forgetCachedPages(), forgetSavedReads()]).catch(() => undefined);
    // The session is gone with the account; signOut clears what the browser still holds.
    await signOut({ callbackUrl: "/sign-in" }).catch(() => router.replace("/sign-in"));
  }

  return (
    <form
      className={styles.form}
      onSubmit={(e) => {
        e.preventDefault();
        if (matches && !busy) void remove();
      }}
    >
      <Notice tone="danger" icon={<TriangleAlert size={18} aria-hidden="true" />}>
        Your notes, recordings, dictionary, posts, channels and API keys are deleted at once and cannot be brought back.
        Export everything first if you want to keep a copy.
      </Notice>
      <Field
        label={
          <>
            Type <EmailAddress email={email} /> to confirm
          </>
        }
        type="email"
        inputMode="email"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        error={error ?? undefined}
      />
      <Button type="submit" variant="danger" block disabled={!matches || busy}>
        <Trash2 size={18} aria-hidden="true" />
        {busy ? "Deleting…" : "Delete my account"}
      </Button>
      <Button variant="ghost" block onClick={onCancel} disabled={busy}>
        Keep my account
      </Button>
    </form>
  );
}
