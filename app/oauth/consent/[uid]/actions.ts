"use server";

import { cookies, headers } from "next/headers";
import { requireUser } from "@/lib/auth/current-user.ts";
import { publicOriginOfHeaders } from "@/lib/http/public-origin.ts";
import { ApiError } from "@/lib/http/errors.ts";
import { answerConsentRequest, INTERACTION_COOKIE } from "@/lib/oauth/consent.ts";
import type { ConsentAnswer } from "@/lib/oauth/consent-answer.ts";

/** Allow or Deny on the consent page; the browser then goes on to the returned URL. */
export async function answerConsentAction(uid: string, allow: boolean): Promise<ConsentAnswer> {
  const user = await requireUser();
  try {
    const cookieUid = (await cookies()).get(INTERACTION_COOKIE)?.value;
    const next = await answerConsentRequest({ issuer: publicOriginOfHeaders(await headers()), uid, cookieUid, userId: user.id, allow });
    return { ok: true, next };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, message: err.message };
    throw err;
  }
}
