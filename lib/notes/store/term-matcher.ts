// Whether a word of a note's text is one of the searched words: as typed, a prefix being typed, or
// one of its stems. Pure (no database): search's snippets and Ask's ranking use it on the request
// thread and in the compute pool alike.

/** A word folded as search compares words (NFKC, lower case in the word's own locale rules). */
export const fold = (word: string) => word.normalize("NFKC").toLocaleLowerCase();

const PLAIN = /^[a-z0-9]+$/i; // most words: folding and removing accents change nothing but case
// Without accents, ß as ss: how the snowball stemmers spell a stem ("Häuser" → haus).
const bare = (word: string) => (PLAIN.test(word) ? word.toLowerCase() : fold(word).normalize("NFD").replace(/\p{M}/gu, "").replaceAll("ß", "ss"));

/** A searched word as the snippet recognizes it: the word, a prefix being typed, or its stems. */
export type SnippetTerm = { word: string; prefix: boolean; stems: string[] };

/** Does a word of a note's text match one of the searched words? Built once for a snippet's terms. */
export function termMatcher(terms: SnippetTerm[]): (textWord: string) => boolean {
  const prepared = terms.map((t) => ({ ...t, stems: t.stems.map(bare) }));
  const stemmed = prepared.some((t) => t.stems.length);
  return (textWord) => {
    const ascii = PLAIN.test(textWord);
    const word = ascii ? textWord.toLowerCase() : fold(textWord);
    if (prepared.some((t) => word === t.word || (t.prefix && word.startsWith(t.word)))) return true;
    if (!stemmed) return false;
    // The database's stemmer is not asked for every word of the text (that is what made ts_headline
    // slow): a word starting with the stem counts, or with all of it but a last letter the stemmer
    // rewrote (country → countri) when the word is not much longer.
    const plain = ascii ? word : bare(textWord);
    return prepared.some((t) =>
      t.stems.some((s) => (s.length < 3 ? plain === s : plain.startsWith(s) || (s.length >= 4 && plain.startsWith(s.slice(0, -1)) && plain.length <= s.length + 2))),
    );
  };
}

