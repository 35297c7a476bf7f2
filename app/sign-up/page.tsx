import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthForm } from "@/app/_components/auth/auth-form.tsx";
import { register } from "@/app/sign-up/actions.ts";
import { AuthPage } from "@/app/_components/auth/auth-page.tsx";
import { currentUser } from "@/lib/auth/current-user.ts";
import { returnPath } from "@/lib/auth/return-path.ts";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const next = returnPath((await searchParams).next);
  if (await currentUser()) redirect(next ?? "/record");
  return (
    <AuthPage title="Create your account" lead="Free, and your recordings stay yours.">
      <AuthForm mode="sign-up" register={register} next={next} />
    </AuthPage>
  );
}
