"use server";

import { headers } from "next/headers";
import { signUp } from "@/lib/accounts/sign-up.ts";
import { clientIp } from "@/lib/http/client-ip.ts";
import { ApiError } from "@/lib/http/errors.ts";
import type { RegisterResult } from "@/lib/accounts/schemas.ts";


/** Creates the account; the form then signs in through next-auth with the same credentials. */
export async function register(input: { email: string; password: string; name?: string }): Promise<RegisterResult> {
  try {
    const ip = clientIp(await headers());
    await signUp({ input: { email: input.email, password: input.password, name: input.name || undefined }, ip });
    return { ok: true };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const fields = Object.fromEntries((err.options.details ?? []).map((d) => [d.path, d.message]));
    return { ok: false, message: err.message, fields };
  }
}
