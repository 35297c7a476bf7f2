// A device's name in Settings → Signed-in devices, from its User-Agent: "Chrome on Android".
// Words only, for a person to tell their devices apart; nothing is decided by it.

const SYSTEMS: [RegExp, string][] = [
  [/iPhone/, "iPhone"],
  [/iPad/, "iPad"],
  [/Android/, "Android"],
  [/CrOS/, "ChromeOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "Mac"],
  [/Linux/, "Linux"],
];
const BROWSERS: [RegExp, string][] = [
  [/SamsungBrowser/, "Samsung Internet"],
  [/Edg(A|iOS)?\//, "Edge"],
  [/Firefox|FxiOS/, "Firefox"],
  [/OPR\//, "Opera"],
  [/Chrome|Chromium|CriOS/, "Chrome"],
  [/Safari/, "Safari"],
];

export function deviceName(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? null;
}
