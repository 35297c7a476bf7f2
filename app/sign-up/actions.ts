"use server";

import { headers } from "next/headers";
import { signUp } from "@/lib/accounts/sign-up.ts";
import { clientIp } from "@/lib/http/client-ip.ts";
import { ApiError } from "@/lib/http/errors.ts";
import type { RegisterResult } from "@/lib/accounts/schemas.ts";

/**
 * Creates the account (with the invitation of the page's link, bound by the page); the form then
 * signs in through next-auth with the same credentials.
 */
export async function register(invitation: string | null, input: { email: string; password: string; name?: string }): Promise<RegisterResult> {
  try {
    const ip = clientIp(await headers());
    await signUp({ input: { email: input.email, password: input.password, name: input.name || undefined }, ip, invitation: invitation ?? undefined });
    return { ok: true };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const fields = Object.fromEntries((err.options.details ?? []).map((d) => [d.path, d.message]));
    return { ok: false, code: err.code, message: err.message, fields };
  }
}
