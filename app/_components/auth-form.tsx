"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { signIn } from "next-auth/react";
import { register } from "@/app/sign-up/actions.ts";

type Mode = "sign-in" | "sign-up";

export function AuthForm({ mode }: { mode: Mode }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      if (mode === "sign-up") {
        const registered = await register({ email, password, name: String(form.get("name") ?? "") });
        if (!registered.ok) {
          setError(registered.message);
          setFieldErrors(registered.fields ?? {});
          return;
        }
      }
      const result = await signIn("credentials", { email, password, redirect: false });
      if (!result?.ok) {
        setError("That email and password do not match an account.");
        return;
      }
      router.replace("/record");
      router.refresh();
    } catch {
      setError("Could not reach Voicedraft. Check your connection and try again.");
    } finally {
      setBusy(false);
    }
  }

  const describedBy = (field: string) => (fieldErrors[field] ? `${field}-error` : undefined);
  return (
    <form className="stack" onSubmit={onSubmit} noValidate={false}>
      {mode === "sign-up" && (
        <>
          <label htmlFor="name">Name (optional)</label>
          <input id="name" name="name" type="text" autoComplete="name" />
        </>
      )}
      <label htmlFor="email">Email</label>
      <input id="email" name="email" type="email" autoComplete="email" required aria-describedby={describedBy("email")} />
      {fieldErrors.email && <p id="email-error" className="error">Email {fieldErrors.email}</p>}
      <label htmlFor="password">Password</label>
      <input
        id="password"
        name="password"
        type="password"
        autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
        required
        aria-describedby={describedBy("password") ?? (mode === "sign-up" ? "password-hint" : undefined)}
      />
      {mode === "sign-up" && <p id="password-hint" className="muted">At least 10 characters.</p>}
      {fieldErrors.password && <p id="password-error" className="error">Password {fieldErrors.password}</p>}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {mode === "sign-up" ? "Create account" : "Sign in"}
      </button>
      <p>
        {mode === "sign-up" ? (
          <>Already have an account? <Link href="/sign-in">Sign in</Link></>
        ) : (
          <>New here? <Link href="/sign-up">Create an account</Link></>
        )}
      </p>
    </form>
  );
}
