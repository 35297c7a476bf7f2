import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthForm } from "@/app/_components/auth-form.tsx";
import { currentUser } from "@/lib/auth/current-user.ts";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage() {
  if (await currentUser()) redirect("/record");
  return (
    <main className="vd">
      <h1>Sign in to Voicedraft</h1>
      <AuthForm mode="sign-in" />
    </main>
  );
}
