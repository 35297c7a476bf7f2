import type { Metadata } from "next";
import Link from "next/link";
import { AuthPage } from "@/app/_components/auth/auth-page.tsx";
import { Notice } from "@/app/_ui/index.ts";

export const metadata: Metadata = { title: "Could not connect the app" };

// What a person can do about the errors the OAuth server cannot send back to the app.
const ADVICE: Record<string, string> = {
  invalid_client: "This app is not registered here, or its registration was removed. Remove the connector in your assistant and add it again.",
  invalid_redirect_uri: "The app asked to come back to an address it did not register. Remove the connector in your assistant and add it again.",
  invalid_request: "The app's request was not complete. Go back to your assistant and connect again; if it happens again, the app may not support this server yet.",
};
const FALLBACK = "Go back to your assistant and connect again.";

// GET /oauth/error – an OAuth error shown to the person (lib/oauth/provider.ts renderError)
export default async function OAuthErrorPage({ searchParams }: { searchParams: Promise<{ error?: string | string[]; error_description?: string | string[] }> }) {
  const { error, error_description: description } = await searchParams;
  const code = typeof error === "string" ? error.slice(0, 64) : "server_error";
  return (
    <AuthPage title="Could not connect the app" lead={ADVICE[code] ?? FALLBACK}>
      <Notice tone="warning">
        For the app’s developers: <code>{code}</code>
        {typeof description === "string" && ` (${description.slice(0, 300)})`}
      </Notice>
      <p className="muted">
        <Link href="/">Go to Voicedraft</Link>
      </p>
    </AuthPage>
  );
}
