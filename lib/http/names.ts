// Names and one-line labels that people read (channel, preset and dictionary names, titles): no
// control characters (line breaks, tabs, NUL…) and no bidirectional controls (U+061C, U+200E/F,
// U+202A–E, U+2066–9), which make a name display as something it is not ("‮txt.exe" reads "exe.txt").
const CONTROLS = "\\p{Cc}\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069";
export const NAME_CHARS = new RegExp(`^[^${CONTROLS}]*$`, "u");
export const NAME_CHARS_MESSAGE = "must not contain control characters (such as line breaks) or bidirectional controls";

const ANY_CONTROL = new RegExp(`[${CONTROLS}]`, "gu");

/** A name a model wrote, on one line and without the characters a typed one is refused for. */
export function oneLineName(text: string): string {
  return text.normalize("NFC").replace(/\s+/g, " ").replace(ANY_CONTROL, "").trim();
}
