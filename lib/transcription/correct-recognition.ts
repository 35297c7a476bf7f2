import type { CompiledDictionary } from "@/lib/dictionary/matcher.ts";
import type { Recognition } from "@/lib/transcription/engines/types.ts";

/** A recognition with the user's dictionary applied: the text, each segment (its times kept) and what was replaced. */
export function correctRecognition(recognition: Recognition, dictionary: CompiledDictionary) {
  const corrected = dictionary.apply(recognition.text);
  const segments = recognition.segments.map((s) => ({ ...s, text: dictionary.apply(s.text).text }));
  return { text: corrected.text, replacements: corrected.replacements, segments };
}
