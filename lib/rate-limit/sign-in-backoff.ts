import { env } from "@/lib/env.ts";
import { limiter } from "@/lib/rate-limit/store.ts";
import { rateLimited } from "@/lib/rate-limit/rate-limited.ts";

// Failures are forgotten a day after the first one (or, per account, at a successful sign-in).
const WINDOW_SECONDS = 24 * 60 * 60;
const MAX_BACKOFF_SECONDS = 60 * 60;

export type SignInAttempt = { succeeded(): Promise<void>; failed(): Promise<void>; cancel(): Promise<void> };

const backoffSeconds = (step: number) =>
  Math.min(MAX_BACKOFF_SECONDS, env().RATE_LIMIT_SIGNIN_BACKOFF_SECONDS * 2 ** Math.max(0, step - 1));

/**
 * One guarded sign-in for a key (an account or an address). The first `free` failures cost
 * nothing; each further one locks the key for a back-off that doubles. Attempts are counted
 * before the password is checked, so a burst cannot slip through while the first ones are checked:
 * the last free attempt, and every one after it, must hold the key's lock (one at a time), as
 * one-at-a-time attempts would find it locked by the failure before. A burst is checked exactly
 * as often as attempts one after another (`free` times): the attempt after the free ones waits
 * for the last free one to fail and lock the key, rather than taking the lock before it.
 */
async function begin(name: string, key: string, free: number, resetOnSuccess: boolean): Promise<SignInAttempt> {
  const failures = limiter({ name: `${name}-failures`, points: free, durationSeconds: WINDOW_SECONDS });
  const lock = limiter({ name: `${name}-lock`, points: 1, durationSeconds: MAX_BACKOFF_SECONDS });
  const message = "Too many failed sign-ins.";
  const held = await lock.get(key);
  if (held && held.msBeforeNext > 0) throw rateLimited(message, free, held.msBeforeNext);
  const n = (await failures.penalty(key)).consumedPoints;
  let ticket = false;
  if (n >= free) {
    // Held while the password is checked (this long at most, should the process stop meanwhile).
    const taken = await lock.penalty(key, 1, { customDuration: backoffSeconds(Math.max(1, n - free)) });
    if (taken.consumedPoints > 1) {
      await failures.reward(key);
      throw rateLimited(message, free, taken.msBeforeNext);
    }
    ticket = true;
  }
  return {
    async failed() {
      if (!ticket) return;
      // The count as it is now: in a burst, the attempts refused meanwhile took theirs back, so
      // the back-off is the one the same failures one at a time would give.
      const now = (await failures.get(key))?.consumedPoints ?? n;
      await lock.block(key, backoffSeconds(Math.max(1, now - free + 1)));
    },
    async succeeded() {
      // An account's success forgives its failures. An address's does not forgive the others'
      // (one's own account would reset them), but this attempt was not one: it gives its point
      // back. Until 2026-11-29 it kept it, so after 20 sign-ins a day from one address (an
      // office, the browser tests' 127.0.0.1) two at the same moment were one "Too many failed
      // sign-ins", with no failure at all.
      if (resetOnSuccess) await failures.delete(key);
      else await failures.reward(key);
      if (ticket || resetOnSuccess) await lock.delete(key);
    },
    async cancel() {
      await failures.reward(key);
      if (ticket) await lock.delete(key);
    },
  };
}

const OFF: SignInAttempt = { succeeded: async () => {}, failed: async () => {}, cancel: async () => {} };

/** Guards one sign-in by account and by address; 429 rate_limited while either is backing off. */
export async function beginSignIn({ email, ip }: { email: string; ip: string }): Promise<SignInAttempt> {
  const { RATE_LIMIT_SIGNIN_FAILURES, RATE_LIMIT_SIGNIN_IP_FAILURES } = env();
  const account = RATE_LIMIT_SIGNIN_FAILURES ? await begin("sign-in-account", email, RATE_LIMIT_SIGNIN_FAILURES, true) : OFF;
  let address = OFF;
  try {
    // Success from an address does not forgive its failures: one's own account would reset them.
    if (RATE_LIMIT_SIGNIN_IP_FAILURES) address = await begin("sign-in-ip", ip, RATE_LIMIT_SIGNIN_IP_FAILURES, false);
  } catch (err) {
    await account.cancel();
    throw err;
  }
  const both = (step: keyof SignInAttempt) => async () => void (await Promise.all([account[step](), address[step]()]));
  return { succeeded: both("succeeded"), failed: both("failed"), cancel: both("cancel") };
}
