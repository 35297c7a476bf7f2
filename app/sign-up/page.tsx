import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthForm } from "@/app/_components/auth-form.tsx";
import { currentUser } from "@/lib/auth/current-user.ts";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage() {
  if (await currentUser()) redirect("/record");
  return (
    <main className="vd">
      <h1>Create your Voicedraft account</h1>
      <AuthForm mode="sign-up" />
    </main>
  );
}
