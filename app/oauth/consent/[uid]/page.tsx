import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { AuthPage } from "@/app/_components/auth/auth-page.tsx";
import { ConsentForm } from "@/app/_components/oauth/consent-form.tsx";
import { Notice } from "@/app/_ui/index.ts";
import { currentUser } from "@/lib/auth/current-user.ts";
import { SCOPE_WORDS, type Scope } from "@/lib/api-keys/scopes.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { publicOriginOfHeaders } from "@/lib/http/public-origin.ts";
import { INTERACTION_COOKIE, readConsentRequest, type ConsentRequest } from "@/lib/oauth/consent.ts";
import { answerConsentAction } from "./actions.ts";

export const metadata: Metadata = { title: "Connect an app" };

/** What the app asks, in a few words: "read your notes and make posts". */
function summary(scopes: Scope[]): string {
  const read = scopes.some((s) => s.endsWith(":read") || s === "content:write");
  const write = scopes.includes("content:write");
  if (read && write) return "read your notes and make posts";
  if (read) return "read your notes";
  if (scopes.includes("transcribe")) return "turn recordings into notes";
  return "connect to your Voicedraft account";
}

/**
 * "Allow Claude at claude.ai?": where the code goes is in the heading beside the app's name, since
 * the name is the app's own say and the place is not (a client named "Assistant" may send it anywhere).
 */
function heading({ clientName, returnsTo, scopes }: ConsentRequest): { title: string; lead: string } {
  const title = returnsTo ? `Allow ${clientName} at ${returnsTo.host}?` : `Allow ${clientName}?`;
  const who = returnsTo?.onThisDevice ? `${clientName}, an app on this device,` : clientName;
  return { title, lead: `${who} wants to ${summary(scopes)}.` };
}

// GET /oauth/consent/<uid> – "Allow <app> to read your notes and make posts": the consent step
// of the OAuth server (lib/oauth/consent.ts), for the signed-in person (else sign-in, and back).
export default async function ConsentPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const user = await currentUser();
  if (!user) redirect(`/sign-in?next=${encodeURIComponent(`/oauth/consent/${uid}`)}`);
  let request;
  try {
    const cookieUid = (await cookies()).get(INTERACTION_COOKIE)?.value;
    request = await readConsentRequest({ issuer: publicOriginOfHeaders(await headers()), uid, cookieUid });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return (
      <AuthPage title="Connect an app" lead="This request can no longer be answered.">
        <Notice tone="warning">{err.message}</Notice>
      </AuthPage>
    );
  }
  const { title, lead } = heading(request);
  return (
    <AuthPage title={title} lead={lead}>
      <ConsentForm
        uid={uid}
        email={user.email}
        returnsTo={request.returnsTo?.host ?? null}
        scopes={request.scopes.map((scope) => ({ scope, words: SCOPE_WORDS[scope] }))}
        answer={answerConsentAction}
      />
    </AuthPage>
  );
}
