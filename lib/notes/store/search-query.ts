import { Prisma } from "@/lib/db/generated/client.ts";
import type { db } from "@/lib/db/client.ts";
import { fold } from "@/lib/notes/store/term-matcher.ts";

// A search query in each language's reading (migration 20261126180000_note_search_stemmed): a
// note's vector holds its words stemmed in its language and as they are, so each searched word
// matches either form. The word being typed (the last one, of 3 letters or more, unless the query
// ends in a space) is also a prefix of a plain word ("countr" finds "country"); its stem is
// matched whole ("countries" finds "country").
//
// Why not websearch_to_tsquery: it has no prefix search, and to_tsquery parses its own syntax. So
// the query is parsed here, in web search syntax (words, "quoted phrases", -excluded, or), and
// only its words, letters and digits and nothing else, go to to_tsquery, one word a call: no
// character of tsquery syntax typed by a person ever reaches the database's parser. The tsquery
// is then composed from what the database returned for each word.
//
// Only the languages the person's notes are in are read (usually one or two): every one of the 30
// readings ORed made the index search and each row's recheck 4× slower (docs/benchmarks.md), and
// the stemmed half as a prefix too matched most of the index for a short prefix.

/** ISO 639-1 → the snowball configuration (in the database and in PGlite); others: 'simple' only. */
export const SEARCH_CONFIGURATIONS: Readonly<Record<string, string>> = {
  ar: "arabic", ca: "catalan", da: "danish", de: "german", el: "greek", en: "english", es: "spanish",
  eu: "basque", fi: "finnish", fr: "french", ga: "irish", hi: "hindi", hu: "hungarian", hy: "armenian",
  id: "indonesian", it: "italian", lt: "lithuanian", nb: "norwegian", ne: "nepali", nl: "dutch",
  nn: "norwegian", no: "norwegian", pt: "portuguese", ro: "romanian", ru: "russian", sr: "serbian",
  sv: "swedish", ta: "tamil", tr: "turkish", yi: "yiddish",
};
const SIMPLE = "simple";
// Enough for any query a person types (q is at most 200 characters); each word costs one
// to_tsquery call per configuration.
const MAX_WORDS = 24;
// A shorter word being typed is searched whole: a prefix of 1–2 letters matches a large part of
// every note's words, a cost with no use (the next letter narrows it anyway).
const MIN_PREFIX = 3;

const WORD = /[\p{L}\p{N}]+/gu;
export { fold };

/** A searched word, a "phrase" (words in a row), or an -excluded one; `prefix`: the word being typed. */
export type Term = { words: string[]; negated: boolean; prefix: boolean };
/** Web search syntax: groups separated by "or", the terms of each all required. */
export type ParsedQuery = Term[][];

export function parseQuery(q: string): ParsedQuery {
  const groups: ParsedQuery = [[]];
  const normalized = q.normalize("NFKC");
  // A query ending in a space ends in a finished word: no prefix.
  const typing = !/\s$/u.test(normalized);
  const tokens = [...normalized.matchAll(/(-?)(?:"([^"]*)"?|(\S+))/g)];
  tokens.forEach(([, minus, phrase, bare], i) => {
    const isLast = i === tokens.length - 1;
    // "or" between two terms means either; typed last it may be the start of "order".
    if (bare !== undefined && !minus && /^or$/i.test(bare) && !isLast) {
      if (groups.at(-1)!.length) groups.push([]);
      return;
    }
    const words = [...(phrase ?? bare).matchAll(WORD)].map(([w]) => fold(w));
    if (!words.length) return; // only punctuation or tsquery operators: nothing to look for
    const prefix = typing && isLast && !minus && phrase === undefined && words.length === 1 && [...words[0]].length >= MIN_PREFIX;
    groups.at(-1)!.push({ words, negated: Boolean(minus), prefix });
  });
  return groups.filter((group) => group.length);
}

/** The words a query looks for (not the -excluded ones), with whether each is a prefix. */
export function searchedTerms(parsed: ParsedQuery): { word: string; prefix: boolean }[] {
  return parsed.flat().filter((t) => !t.negated).flatMap((t) => t.words.map((word) => ({ word, prefix: t.prefix })));
}

export type StemmedQuery = {
  /** Any reading of the query in the person's languages: what the index is searched with. */
  any: string;
  /** Whether that is the reading of every note (all of them in languages read alike): no recheck. */
  single: boolean;
  /** The reading in each configuration in use (keyed by configuration name), for a note in that language. */
  byConfiguration: Map<string, string>;
  /** The languages (ISO 639-1, as stored) of the person's notes. */
  languages: string[];
  /** The stems of a searched word in a configuration (for snippets). */
  stems: (word: string, prefix: boolean, configuration: string) => string[];
};

/** The configuration a note in `language` is searched in. */
export const configurationOf = (language: string) => SEARCH_CONFIGURATIONS[language] ?? SIMPLE;

type Client = Awaited<ReturnType<typeof db>>;

/**
 * The query as tsquery text per configuration of the languages `userId`'s notes are in; null when
 * it has no word to look for, or the person has no notes.
 */
export async function stemQuery(prisma: Client, userId: string, parsed: ParsedQuery): Promise<StemmedQuery | null> {
  const keys = new Map<string, { word: string; prefix: boolean }>();
  for (const term of parsed.flat()) for (const word of term.words) keys.set(`${word}\u0000${term.prefix}`, { word, prefix: term.prefix });
  const unique = [...keys.values()].slice(0, MAX_WORDS);
  if (!unique.length) return null;
  const codes = Object.keys(SEARCH_CONFIGURATIONS);
  // One statement: the person's languages (a skip scan of transcriptions_user_id_language_idx, one
  // index probe a language, however many notes), and each word as the database's own tsquery text
  // (quoted lexemes; '' for a stop word) in 'simple' and in those languages' configurations. The
  // word being typed is a prefix of a plain word only.
  const rows = await prisma.$queryRaw<{ i: bigint | number | null; cfg: string | null; q: string | null; languages: string[] | null }[]>`
    WITH RECURSIVE langs(language) AS (
      (SELECT language FROM transcriptions WHERE user_id = ${userId} ORDER BY language LIMIT 1)
      UNION ALL
      SELECT (SELECT t.language FROM transcriptions t WHERE t.user_id = ${userId} AND t.language > l.language ORDER BY t.language LIMIT 1)
      FROM langs l WHERE l.language IS NOT NULL
    ),
    cfgs(cfg) AS (
      SELECT ${SIMPLE}::text
      UNION
      SELECT m.cfg FROM langs JOIN unnest(${codes}::text[], ${codes.map((c) => SEARCH_CONFIGURATIONS[c])}::text[]) AS m(code, cfg) ON m.code = langs.language
    )
    SELECT w.i, c.cfg,
      to_tsquery(c.cfg::regconfig, w.word || CASE WHEN w.prefix AND c.cfg = ${SIMPLE} THEN ':*' ELSE '' END)::text AS q,
      (SELECT array_agg(language) FROM langs WHERE language IS NOT NULL) AS languages
    FROM unnest(${unique.map((u) => u.word)}::text[], ${unique.map((u) => u.prefix)}::bool[]) WITH ORDINALITY AS w(word, prefix, i), cfgs c`;
  const languages = rows[0]?.languages ?? [];
  if (!languages.length) return null; // no notes: nothing to find
  const stems_ = new Map(rows.map((r) => [`${Number(r.i) - 1}\u0000${r.cfg}`, r.q ?? ""]));
  const index = new Map([...keys.keys()].slice(0, MAX_WORDS).map((key, i) => [key, i]));

  const byConfiguration = new Map<string, string>();
  for (const cfg of new Set([SIMPLE, ...languages.map(configurationOf)])) {
    const word = (w: string, prefix: boolean) => {
      const i = index.get(`${w}\u0000${prefix}`);
      if (i === undefined) return null; // past MAX_WORDS
      const forms = [...new Set([stems_.get(`${i}\u0000${cfg}`), stems_.get(`${i}\u0000${SIMPLE}`)].filter(Boolean))];
      return forms.length ? `(${forms.join(" | ")})` : null;
    };
    const groups = parsed.flatMap((group) => {
      const terms = group.flatMap((term) => {
        const words = term.words.map((w) => word(w, term.prefix)).filter((w) => w !== null);
        if (!words.length) return [];
        const expr = words.length > 1 ? `(${words.join(" <-> ")})` : words[0];
        return [term.negated ? `!${expr}` : expr];
      });
      return terms.length ? [`(${terms.join(" & ")})`] : [];
    });
    if (groups.length) byConfiguration.set(cfg, groups.join(" | "));
  }
  // The readings of the notes there are ('simple' is computed for the plain half, not searched
  // with unless a language has no configuration).
  const used = [...new Set(languages.map((language) => byConfiguration.get(configurationOf(language))).filter((q) => q !== undefined))];
  if (!used.length) return null;
  const any = used.length === 1 ? used[0] : used.map((q) => `(${q})`).join(" | ");
  const stems = (w: string, prefix: boolean, cfg: string) => {
    const i = index.get(`${w}\u0000${prefix}`);
    const q = i === undefined ? "" : (stems_.get(`${i}\u0000${cfg}`) ?? "");
    return [...q.matchAll(/'((?:[^']|'')*)'/g)].map(([, lexeme]) => lexeme.replaceAll("''", "'"));
  };
  return { any, single: used.length === 1, byConfiguration, languages, stems };
}

/**
 * The query in the language of the note (`language`: its column): a CASE over the person's
 * languages whose reading differs from the plain one, each tsquery a constant of the statement.
 * A language not among them (a note added since) is read plainly.
 */
export function queryInLanguage(stemmed: StemmedQuery, language: Prisma.Sql): Prisma.Sql {
  const plain = stemmed.byConfiguration.get(SIMPLE) ?? stemmed.any;
  const byQuery = new Map<string, string[]>();
  for (const code of stemmed.languages) {
    const q = stemmed.byConfiguration.get(configurationOf(code)) ?? plain;
    if (q !== plain) byQuery.set(q, [...(byQuery.get(q) ?? []), code]);
  }
  if (!byQuery.size) return Prisma.sql`${plain}::tsquery`;
  const branches = [...byQuery].map(([q, codes]) => Prisma.sql`WHEN ${language} IN (${Prisma.join(codes)}) THEN ${q}::tsquery`);
  return Prisma.sql`(CASE ${Prisma.join(branches, " ")} ELSE ${plain}::tsquery END)`;
}

/**
 * A query's conditions on a note (`t`) and on its clean-up (`o`), with `also` after each (a tag or
 * date filter), and the tsqueries each is ranked by. The index is searched with the reading of each
 * of the person's languages ORed (one GIN scan); a row is kept only if the reading in its own
 * language matches (precise), ranked by that reading too. Notes all read alike (one language, the
 * usual case): that one reading, no recheck.
 */
export function matchConditions(stemmed: StemmedQuery, also: Prisma.Sql = Prisma.empty) {
  const any = Prisma.sql`${stemmed.any}::tsquery`;
  const inNote = stemmed.single ? any : queryInLanguage(stemmed, Prisma.sql`t.language`);
  const inCleanUp = stemmed.single ? any : queryInLanguage(stemmed, Prisma.sql`o.language`);
  return {
    inNote,
    inCleanUp,
    noteMatches: stemmed.single ? Prisma.sql`t.search @@ ${any}${also}` : Prisma.sql`t.search @@ ${any} AND t.search @@ ${inNote}${also}`,
    cleanUpMatches: stemmed.single ? Prisma.sql`o.search @@ ${any}${also}` : Prisma.sql`o.search @@ ${any} AND o.search @@ ${inCleanUp}${also}`,
  };
}
