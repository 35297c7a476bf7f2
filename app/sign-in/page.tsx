import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthForm } from "@/app/_components/auth/auth-form.tsx";
import { AuthPage } from "@/app/_components/auth/auth-page.tsx";
import { currentUser } from "@/lib/auth/current-user.ts";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage() {
  if (await currentUser()) redirect("/record");
  return (
    <AuthPage title="Welcome back" lead="Sign in to record and read your notes.">
      <AuthForm mode="sign-in" />
    </AuthPage>
  );
}
