import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { MailQuestion } from "lucide-react";
import { AuthForm } from "@/app/_components/auth/auth-form.tsx";
import { register } from "@/app/sign-up/actions.ts";
import { AuthPage } from "@/app/_components/auth/auth-page.tsx";
import { EmptyState } from "@/app/_ui/index.ts";
import { isNewInstall } from "@/lib/accounts/find-owner.ts";
import { currentUser } from "@/lib/auth/current-user.ts";
import { returnPath } from "@/lib/auth/return-path.ts";
import { env } from "@/lib/env.ts";

export const metadata: Metadata = { title: "Create an account" };

type Search = { next?: string | string[]; invitation?: string | string[] };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const next = returnPath(search.next);
  const invitation = typeof search.invitation === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(search.invitation) ? search.invitation : null;
  if (await currentUser()) redirect(next ?? "/record");
  const first = await isNewInstall();
  const policy = env().SIGNUP;
  // Without a way in, the form would only end in a refusal: say so first.
  if (!first && (policy === "closed" || (policy === "invite" && !invitation))) {
    return (
      <AuthPage title="Create your account" lead="Free, and your recordings stay yours.">
        <EmptyState icon={<MailQuestion size={28} />} title={policy === "closed" ? "Sign-up is closed here" : "By invitation"}>
          {policy === "closed"
            ? "This Voicedraft takes no new accounts. Ask the person who runs it."
            : "Ask the owner of this Voicedraft for an invitation link, and open it on this device."}
        </EmptyState>
        <p className="muted">
          Already have an account? <Link href="/sign-in">Sign in</Link>
        </p>
      </AuthPage>
    );
  }
  return (
    <AuthPage
      title="Create your account"
      lead={first ? "The first account here is its owner's: you can invite others later, in Settings." : invitation ? "You were invited. Your recordings stay yours." : "Free, and your recordings stay yours."}
    >
      <AuthForm mode="sign-up" register={register.bind(null, invitation)} next={next} />
    </AuthPage>
  );
}
