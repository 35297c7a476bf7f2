/** Why a page at a plain http address cannot record (the Record screen says it before anyone taps). */
export const INSECURE_ADDRESS =
  "The browser keeps the microphone off at this plain http address. To record, open Voicedraft at its https address; meanwhile you can send an audio file.";

// What to do when the browser refused the microphone, in the words of the browser at hand.
export function microphoneHelp(err: unknown): string {
  // Over plain http to another computer the browser has no microphone at all: reloading cannot help.
  if (!window.isSecureContext || !navigator.mediaDevices) return INSECURE_ADDRESS;
  const name = (err as { name?: string })?.name;
  if (name === "NotFoundError" || name === "OverconstrainedError") return "No microphone was found. Plug one in or check that your phone's microphone is not in use by another app.";
  if (name === "NotReadableError") return "The microphone is busy in another app (a call, another recorder). Close it and try again.";
  if (name !== "NotAllowedError" && name !== "SecurityError") return "The microphone could not be started. Reload the page and try again.";
  const ua = navigator.userAgent;
  if (/iPhone|iPad|iPod/.test(ua)) return "Microphone access is off. On iPhone: Settings → Safari → Microphone → Allow, or tap “aA” in the address bar → Website Settings → Microphone → Allow. Then try again.";
  if (/SamsungBrowser/.test(ua)) return "Microphone access is off. Tap the lock icon in the address bar → Permissions → Microphone → Allow, then try again.";
  if (/Firefox/.test(ua)) return "Microphone access is off. Tap the lock icon in the address bar, clear the “Blocked” microphone permission, then try again.";
  if (/Safari/.test(ua) && !/Chrome|Chromium/.test(ua)) return "Microphone access is off. In Safari: Settings for this website → Microphone → Allow, then try again.";
  if (/Android/.test(ua)) return "Microphone access is off. Tap the icon left of the address → Permissions → Microphone → Allow. If it stays off: Android Settings → Apps → your browser → Permissions → Microphone.";
  return "Microphone access is off. Click the icon left of the address → Microphone → Allow, then try again.";
}
