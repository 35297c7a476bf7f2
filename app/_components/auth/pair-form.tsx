"use client";

import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { forgetSavedReads } from "@/app/_lib/api.ts";
import { SECURE_ADDRESS_HELP, useSecureContext } from "@/app/_lib/secure-context.ts";
import { Button, Field, Notice } from "@/app/_ui/index.ts";

const codeInHash = () => decodeURIComponent(window.location.hash.slice(1)).trim();

/** Signs this phone in with a pairing code: the link's (at once), or one typed. */
export function PairForm() {
  const router = useRouter();
  const secure = useSecureContext();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  async function pair(code: string) {
    setBusy(true);
    setError(null);
    try {
      const result = await signIn("pairing", { code, redirect: false });
      if (!result?.ok) {
        // A refusal with a reason (plain http, too many tries) comes back as its message.
        setError(result?.error && result.error !== "CredentialsSignin" ? result.error : "That code was used already or has expired. On your computer, show a new one: Settings → Add a phone.");
        return;
      }
      history.replaceState(null, "", "/pair"); // the used code leaves the address bar
      await forgetSavedReads();
      router.replace("/record");
      router.refresh();
    } catch {
      setError("Could not reach Voicedraft. Check the phone's connection and try again.");
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    const code = codeInHash();
    if (code && !started.current) {
      started.current = true;
      void pair(code);
    }
    // Once, for the link the phone was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void pair(String(new FormData(event.currentTarget).get("code") ?? ""));
  }

  return (
    <form className="stack" method="post" onSubmit={onSubmit} data-testid="pair-form">
      {!secure && (
        <Notice tone="warning">
          This address is plain http: a phone can be added, and can record, only at a secure (https) one. <a href={SECURE_ADDRESS_HELP}>How to set one up</a>
        </Notice>
      )}
      <Field id="code" name="code" label="Code" type="text" autoComplete="one-time-code" autoCapitalize="characters" spellCheck={false} required placeholder="K7QF-3MZP" />
      {error && (
        <Notice tone="danger" role="alert">
          {error}
        </Notice>
      )}
      <Button type="submit" size="large" block disabled={busy}>
        {busy ? "Signing this phone in…" : "Sign in on this phone"}
      </Button>
    </form>
  );
}
