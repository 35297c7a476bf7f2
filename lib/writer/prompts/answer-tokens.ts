// The longest answer each task needs, in tokens. A model on a slow machine writes about 7 tokens a
// second, so an X post stops where an X post ends rather than at 1,024 tokens, and the prompt and
// its answer fit the context sooner. Counted from characters at 3 a token (English runs near 4;
// German, Spanish and numbers fewer, so a real answer is not cut), plus room for the JSON's keys.

const CHARS_PER_TOKEN = 3;
const JSON_KEYS = 24;
export const ANSWER_TOKENS_MAX = 1024;

/** Tokens for an answer of at most `chars` characters (at most `max`). */
export function answerTokens(chars: number, { max = ANSWER_TOKENS_MAX }: { max?: number } = {}): number {
  return Math.min(max, Math.ceil(chars / CHARS_PER_TOKEN) + JSON_KEYS);
}
