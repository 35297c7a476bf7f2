import { Prisma } from "@/lib/db/generated/client.ts";
import type { db } from "@/lib/db/client.ts";

// A search query in each language's reading (migration 20261126180000_note_search_stemmed): a
// note's vector holds its words stemmed in its language and as they are, so each searched word
// matches either form, the last one also as a prefix of either ("countr" finds "country").
//
// Why not websearch_to_tsquery: it has no prefix search, and to_tsquery parses its own syntax. So
// the query is parsed here, in web search syntax (words, "quoted phrases", -excluded, or), and
// only its words, letters and digits and nothing else, go to to_tsquery, one word a call: no
// character of tsquery syntax typed by a person ever reaches the database's parser. The tsquery
// is then composed from what the database returned for each word.

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

const WORD = /[\p{L}\p{N}]+/gu;
export const fold = (word: string) => word.normalize("NFKC").toLocaleLowerCase();

/** A searched word, a "phrase" (words in a row), or an -excluded one; `prefix`: the word being typed. */
export type Term = { words: string[]; negated: boolean; prefix: boolean };
/** Web search syntax: groups separated by "or", the terms of each all required. */
export type ParsedQuery = Term[][];

export function parseQuery(q: string): ParsedQuery {
  const groups: ParsedQuery = [[]];
  const tokens = [...q.normalize("NFKC").matchAll(/(-?)(?:"([^"]*)"?|(\S+))/g)];
  tokens.forEach(([, minus, phrase, bare], i) => {
    const isLast = i === tokens.length - 1;
    // "or" between two terms means either; typed last it may be the start of "order".
    if (bare !== undefined && !minus && /^or$/i.test(bare) && !isLast) {
      if (groups.at(-1)!.length) groups.push([]);
      return;
    }
    const words = [...(phrase ?? bare).matchAll(WORD)].map(([w]) => fold(w));
    if (!words.length) return; // only punctuation or tsquery operators: nothing to look for
    groups.at(-1)!.push({ words, negated: Boolean(minus), prefix: isLast && !minus && phrase === undefined && words.length === 1 });
  });
  return groups.filter((group) => group.length);
}

/** The words a query looks for (not the -excluded ones), with whether each is a prefix. */
export function searchedTerms(parsed: ParsedQuery): { word: string; prefix: boolean }[] {
  return parsed.flat().filter((t) => !t.negated).flatMap((t) => t.words.map((word) => ({ word, prefix: t.prefix })));
}

export type StemmedQuery = {
  /** Any language's reading of the query: what the index is searched with. */
  any: string;
  /** The reading in each configuration (keyed by configuration name), for a note in that language. */
  byConfiguration: Map<string, string>;
  /** The stems of a searched word in a configuration (for snippets). */
  stems: (word: string, prefix: boolean, configuration: string) => string[];
};

/** The configuration a note in `language` is searched in. */
export const configurationOf = (language: string) => SEARCH_CONFIGURATIONS[language] ?? SIMPLE;

type Client = Awaited<ReturnType<typeof db>>;

/** The query as tsquery text per configuration; null when it has no word to look for. */
export async function stemQuery(prisma: Client, parsed: ParsedQuery): Promise<StemmedQuery | null> {
  const keys = new Map<string, { word: string; prefix: boolean }>();
  for (const term of parsed.flat()) for (const word of term.words) keys.set(`${word}\u0000${term.prefix}`, { word, prefix: term.prefix });
  const unique = [...keys.values()].slice(0, MAX_WORDS);
  if (!unique.length) return null;
  const configurations = [...new Set([SIMPLE, ...Object.values(SEARCH_CONFIGURATIONS)])];
  // Each word as the database's own tsquery text (quoted lexemes; '' for a stop word).
  const rows = await prisma.$queryRaw<{ i: bigint | number; cfg: string; q: string }[]>`
    SELECT w.i, c.cfg, to_tsquery(c.cfg::regconfig, w.word || CASE WHEN w.prefix THEN ':*' ELSE '' END)::text AS q
    FROM unnest(${unique.map((u) => u.word)}::text[], ${unique.map((u) => u.prefix)}::bool[]) WITH ORDINALITY AS w(word, prefix, i),
      unnest(${configurations}::text[]) AS c(cfg)`;
  const stems_ = new Map(rows.map((r) => [`${Number(r.i) - 1}\u0000${r.cfg}`, r.q]));
  const index = new Map([...keys.keys()].slice(0, MAX_WORDS).map((key, i) => [key, i]));

  const byConfiguration = new Map<string, string>();
  for (const cfg of configurations) {
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
  if (!byConfiguration.size) return null;
  const any = [...new Set(byConfiguration.values())].map((q) => `(${q})`).join(" | ");
  const stems = (w: string, prefix: boolean, cfg: string) => {
    const i = index.get(`${w}\u0000${prefix}`);
    const q = i === undefined ? "" : (stems_.get(`${i}\u0000${cfg}`) ?? "");
    return [...q.matchAll(/'((?:[^']|'')*)'/g)].map(([, lexeme]) => lexeme.replaceAll("''", "'"));
  };
  return { any, byConfiguration, stems };
}

/**
 * The query in the language of the note (`language`: its column): a CASE over the languages whose
 * reading differs from the plain one, each tsquery a constant of the statement.
 */
export function queryInLanguage(stemmed: StemmedQuery, language: Prisma.Sql): Prisma.Sql {
  const plain = stemmed.byConfiguration.get(SIMPLE) ?? stemmed.any;
  const byQuery = new Map<string, string[]>();
  for (const [code, cfg] of Object.entries(SEARCH_CONFIGURATIONS)) {
    const q = stemmed.byConfiguration.get(cfg) ?? plain;
    if (q !== plain) byQuery.set(q, [...(byQuery.get(q) ?? []), code]);
  }
  if (!byQuery.size) return Prisma.sql`${plain}::tsquery`;
  const branches = [...byQuery].map(([q, codes]) => Prisma.sql`WHEN ${language} IN (${Prisma.join(codes)}) THEN ${q}::tsquery`);
  return Prisma.sql`(CASE ${Prisma.join(branches, " ")} ELSE ${plain}::tsquery END)`;
}
