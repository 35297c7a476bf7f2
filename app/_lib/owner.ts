// Who uses the app on this phone, kept where the service worker can read it: a file shared into
// the app (the share target) is queued for them, also offline. Written by the app frame on every
// visit; gone with the saved reads on sign-in and sign-out (forgetSavedReads).
import { localDb } from "@/app/_lib/local-db.ts";

export const OWNER_KEY = "voicedraft:owner";

export async function rememberOwner(owner: string): Promise<void> {
  try {
    await (await localDb()).put("reads", { path: OWNER_KEY, body: owner, savedAt: Date.now() });
  } catch {
    // no IndexedDB: sharing into the app then asks to sign in
  }
}
