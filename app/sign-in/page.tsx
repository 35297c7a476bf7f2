import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthForm } from "@/app/_components/auth/auth-form.tsx";
import { AuthPage } from "@/app/_components/auth/auth-page.tsx";
import { currentUser } from "@/lib/auth/current-user.ts";

export const metadata: Metadata = { title: "Sign in" };

// Where a page that needs a session sends the person back after signing in; only the consent
// page of the OAuth server asks for it, and nothing else is followed (no open redirect).
const RETURNABLE = /^\/oauth\/consent\/[A-Za-z0-9_-]{1,64}$/;

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next: asked } = await searchParams;
  const next = typeof asked === "string" && RETURNABLE.test(asked) ? asked : undefined;
  if (await currentUser()) redirect(next ?? "/record");
  return (
    <AuthPage title="Welcome back" lead={next ? "Sign in to connect an app to your notes." : "Sign in to record and read your notes."}>
      <AuthForm mode="sign-in" next={next} />
    </AuthPage>
  );
}
