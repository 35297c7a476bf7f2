// What makes two misspellings "the same": the token sequence the matcher
// compares. matchKey is built from those very tokens so the DB's "one entry per
// misspelling per user" rule and the matcher can never disagree.
//
// The result is what NFC → trim → collapse whitespace → case-fold gives, with
// one deliberate difference: each token is folded on its own. Folding a whole
// string lets punctuation change a neighbour's folding (JS lowercases "ΟΔΟΣ.ΚΑΙ"
// to "οδοσ.και" but "ΟΔΟΣ" alone to "οδος"), which the matcher, comparing token
// by token, would not reproduce.

export type Token = {
  /** Offset of the token's first UTF-16 unit in the tokenized string. */
  start: number;
  /** Offset just past the token's last UTF-16 unit. */
  end: number;
  folded: string;
  /** Whitespace separates this token from the previous one (false for the first token). */
  afterGap: boolean;
};

// Combining marks stay with the character they modify, so a decomposed input
// ("=" + U+0338) tokenizes like its composed form ("≠"), and an emoji keeps its
// variation selector.
const TOKEN = /[\p{L}\p{M}\p{N}\p{Pc}]+|\S\p{M}*/gu;
const NON_ASCII = /[^\x00-\x7f]/;

// Upper-then-lower approximates full case folding: "ß" → "SS" → "ss", and both
// sigmas become "Σ" before lowering. Re-NFC because case mapping can decompose.
export function foldToken(token: string): string {
  if (!NON_ASCII.test(token)) return token.toLowerCase();
  return token.normalize("NFC").toUpperCase().toLowerCase().normalize("NFC");
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let previousEnd = -1;
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index;
    const end = start + match[0].length;
    tokens.push({
      start,
      end,
      folded: foldToken(match[0]),
      afterGap: previousEnd !== -1 && start > previousEnd,
    });
    previousEnd = end;
  }
  return tokens;
}

export function matchKey(s: string): string {
  let key = "";
  for (const token of tokenize(s)) key += (token.afterGap ? " " : "") + token.folded;
  return key;
}
