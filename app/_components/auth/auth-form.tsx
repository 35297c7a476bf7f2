"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useSyncExternalStore, type FormEvent } from "react";
import { signIn } from "next-auth/react";
import type { RegisterResult } from "@/lib/accounts/schemas.ts";
import { Button, Field, Notice } from "@/app/_ui/index.ts";
import { forgetSavedReads } from "@/app/_lib/api.ts";

/** Signing in, or signing up with the sign-up page's server action (it comes in as a prop). */
type Mode = { next?: string } & ({ mode: "sign-in" } | { mode: "sign-up"; register: (input: { email: string; password: string; name?: string }) => Promise<RegisterResult> });

/** Nothing to subscribe to: on the server and in hydration the snapshot is false, then true. */
const noChange = () => () => undefined;

const sentence = (field: string, message: string) => `${field} ${message}.`.replace(/\.\.$/, ".");

export function AuthForm(props: Mode) {
  const { mode } = props;
  const carry = props.next ? `?next=${encodeURIComponent(props.next)}` : "";
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  // Until the page is interactive, a tap would submit the form natively: a GET of this page with the
  // email and password in its URL (a CI run's sign-up, on a loaded machine, went there). The button
  // waits for the page, and the form posts, never gets, if it is sent without it.
  const ready = useSyncExternalStore(noChange, () => true, () => false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      if (props.mode === "sign-up") {
        const registered = await props.register({ email, password, name: String(form.get("name") ?? "") });
        if (!registered.ok) {
          // One message per problem: beside its field when there is one, else above the button.
          const fields = registered.fields ?? {};
          setFieldErrors(fields);
          if (!Object.keys(fields).length) setError(registered.message);
          return;
        }
      }
      const result = await signIn("credentials", { email, password, redirect: false });
      if (!result?.ok) {
        // A back-off refusal comes back as next-auth's error text; it says how long to wait.
        const backingOff = result?.error?.startsWith("Too many") ? result.error : null;
        setError(backingOff ?? "That email and password do not match an account.");
        return;
      }
      await forgetSavedReads();
      router.replace(props.next ?? "/record");
      router.refresh();
    } catch {
      setError("Could not reach Voicedraft. Check your connection and try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="stack" method="post" onSubmit={onSubmit}>
      {mode === "sign-up" && <Field id="name" name="name" label="Name (optional)" type="text" autoComplete="name" />}
      <Field
        id="email"
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        error={fieldErrors.email && sentence("Email", fieldErrors.email)}
      />
      <Field
        id="password"
        name="password"
        label="Password"
        type="password"
        autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
        required
        hint={mode === "sign-up" ? "At least 10 characters." : undefined}
        error={fieldErrors.password && sentence("Password", fieldErrors.password)}
      />
      {error && (
        <Notice tone="danger" role="alert">
          {error}
        </Notice>
      )}
      <Button type="submit" size="large" block disabled={!ready || busy}>
        {mode === "sign-up" ? "Create account" : "Sign in"}
      </Button>
      <p className="muted">
        {mode === "sign-up" ? (
          <>
            Already have an account? <Link href={`/sign-in${carry}`}>Sign in</Link>
          </>
        ) : (
          <>
            New here? <Link href={`/sign-up${carry}`}>Create an account</Link>
          </>
        )}
      </p>
    </form>
  );
}
