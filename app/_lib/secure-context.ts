import { useSyncExternalStore } from "react";

// Recording (the microphone), the service worker (offline use) and installing the app all need a
// secure context: https, or http to this computer itself. A phone reaching the server at
// http://<name>:3000 gets none of them; the page says so instead of failing at each.

const never = () => () => {};

/** Whether this page may use the microphone, a service worker and installing (true while rendering on the server). */
export const useSecureContext = (): boolean => useSyncExternalStore(never, () => window.isSecureContext, () => true);

/** Where the steps to a secure address are (docs/phone.md as the app serves it). */
export const SECURE_ADDRESS_HELP = "/docs/phone";
