// Personal-dictionary matcher.
//
// Text and misspellings are cut into the same tokens (see match-key.ts): word
// runs of letters/marks/digits/connectors, and single punctuation or symbol
// characters. A misspelling matches where its folded tokens appear in order
// with the same pattern of "adjacent" vs "separated by whitespace" between
// them. Comparing tokens rather than characters is what makes matches whole
// words ("cat" never hits "category"), lets any run of spaces or a line break
// stand in for a space, and lets "c++" or "node.js" be entries at all.
//
// Entries live in a trie keyed by token, walked from each text position, so
// cost grows with the transcript and the longest phrase, not with the size of
// the dictionary. The longest phrase at a position wins, since it is the more
// specific correction. The scan makes a single pass and resumes after each
// replacement, so a correction is never itself corrected (a→b, b→c turns "a"
// into "b"). Only the matched span is rewritten, with the correct spelling
// exactly as stored; surrounding whitespace and punctuation are untouched.
//
// `replacements` counts spans whose text actually changed: a transcript that
// already says "Kubernetes" did not need the kubernetes→Kubernetes entry.

import { tokenize, type Token } from "./match-key.ts";

export type DictionaryEntry = { misspelling: string; correctSpelling: string };

export type ApplyResult = { text: string; replacements: number };

/** A span of the text an entry matched: [start, end) in UTF-16 offsets, and what replaces it. */
export type DictionaryMatch = { start: number; end: number; correctSpelling: string };

export type CompiledDictionary = {
  apply(text: string): ApplyResult;
  /** The spans `apply` rewrites, in order (also those already spelled right), without rewriting. */
  matches(text: string): DictionaryMatch[];
};

type TrieNode = { children: Map<string, TrieNode>; correctSpelling?: string };

// Folded tokens never contain whitespace, so a leading space cannot collide
// with a token; the first token of a phrase has no edge to its predecessor.
function edgeKey(token: Token, isFirst: boolean): string {
  return isFirst || !token.afterGap ? token.folded : " " + token.folded;
}

export function compileDictionary(entries: ReadonlyArray<DictionaryEntry>): CompiledDictionary {
  const root: TrieNode = { children: new Map() };
  for (const entry of entries) {
    const tokens = tokenize(entry.misspelling);
    if (tokens.length === 0) continue;
    let node = root;
    tokens.forEach((token, index) => {
      const key = edgeKey(token, index === 0);
      let child = node.children.get(key);
      if (!child) {
        child = { children: new Map() };
        node.children.set(key, child);
      }
      node = child;
    });
    // Later entries overwrite earlier ones with the same key: request entries win over stored ones.
    node.correctSpelling = entry.correctSpelling;
  }
  return { apply: (text) => applyTrie(root, text), matches: (text) => findMatches(root, text) };
}

type Match = { lastToken: number; correctSpelling: string };

function longestMatchAt(root: TrieNode, tokens: Token[], first: number): Match | null {
  let longest: Match | null = null;
  let node = root.children.get(tokens[first].folded);
  for (let index = first; node; ) {
    if (node.correctSpelling !== undefined) longest = { lastToken: index, correctSpelling: node.correctSpelling };
    index += 1;
    if (index === tokens.length) break;
    node = node.children.get(edgeKey(tokens[index], false));
  }
  return longest;
}

function findMatches(root: TrieNode, text: string): DictionaryMatch[] {
  if (root.children.size === 0) return [];
  const tokens = tokenize(text);
  const matches: DictionaryMatch[] = [];
  let position = 0;
  while (position < tokens.length) {
    const match = longestMatchAt(root, tokens, position);
    if (!match) {
      position += 1;
      continue;
    }
    matches.push({ start: tokens[position].start, end: tokens[match.lastToken].end, correctSpelling: match.correctSpelling });
    position = match.lastToken + 1;
  }
  return matches;
}

function applyTrie(root: TrieNode, text: string): ApplyResult {
  let output = "";
  let copiedUpTo = 0;
  let replacements = 0;
  for (const { start, end, correctSpelling } of findMatches(root, text)) {
    if (text.slice(start, end) !== correctSpelling) replacements += 1;
    output += text.slice(copiedUpTo, start) + correctSpelling;
    copiedUpTo = end;
  }
  return { text: output + text.slice(copiedUpTo), replacements };
}

export function applyDictionary(text: string, entries: ReadonlyArray<DictionaryEntry>): ApplyResult {
  return compileDictionary(entries).apply(text);
}
