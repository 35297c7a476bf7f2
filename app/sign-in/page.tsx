import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthForm } from "@/app/_components/auth/auth-form.tsx";
import { AuthPage } from "@/app/_components/auth/auth-page.tsx";
import { currentUser } from "@/lib/auth/current-user.ts";
import { returnPath } from "@/lib/auth/return-path.ts";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const next = returnPath((await searchParams).next);
  if (await currentUser()) redirect(next ?? "/record");
  return (
    <AuthPage title="Welcome back" lead={next ? "Sign in to connect an app to your notes." : "Sign in to record and read your notes."}>
      <AuthForm mode="sign-in" next={next} />
    </AuthPage>
  );
}
