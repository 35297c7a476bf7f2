// The clean-up sheet's line above its list of changed words (clean-up-summary.tsx): what the
// clean-up did besides words, and a colon only where the list follows it.

const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;

/**
 * What the clean-up did besides words, said only where it did it (issue 57: "capitals are added
 * throughout" while "mr john" stayed lower case): punctuation, and capitals at sentence starts.
 */
export function cleanUpDid(recognized: string, cleaned: string, changed: boolean): string {
  const punctuation = count(cleaned, /[.,!?;:]/g) > count(recognized, /[.,!?;:]/g);
  const capitals = count(cleaned, /\p{Lu}/gu) > count(recognized, /\p{Lu}/gu);
  const did = punctuation && capitals ? "Punctuation and capitals at the start of sentences were added" : punctuation ? "Punctuation was added" : capitals ? "Capitals were added at the start of sentences" : "";
  if (!did) return changed ? "These words changed:" : "Nothing changed but spacing.";
  // The list of words follows this line: its colon ends it.
  const names = "Names keep the recognizer's spelling: tap one to fix it.";
  return changed ? `${did}. ${names} These words changed:` : `${did}, and no word changed. ${names}`;
}
