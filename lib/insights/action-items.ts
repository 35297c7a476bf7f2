import { ACTION_ITEM_MAX, ACTION_ITEMS_MAX } from "@/lib/insights/schemas.ts";

// Action items: the sentences that commit to doing something, in English, German, Spanish and
// French (all four are tried whatever the note's language: people mix them, and the phrases do
// not occur by chance in the others). When the commitment opens the sentence, the rest of it is
// the to-do ("I need to call Anna" → "Call Anna"; "Il faut acheter du pain" → "Acheter du pain").

const L = "\\p{L}\\p{M}\\p{N}";
/** Phrases after which the rest of the sentence reads as a to-do. */
const LEADS = [
  // English
  "(?:i|we)(?: really| also| still| just| definitely)? (?:need|have|got|want) to",
  "i've got to", "(?:i|we) gotta", "(?:i|we)(?: really| also)? (?:must|should|ought to)",
  "(?:i|we)(?:'ll| will| shall)(?: also| definitely)?", "(?:i'm|i am|we're|we are) (?:going to|gonna)",
  "(?:remember|don't forget|do not forget|make sure|be sure) to", "make sure(?: that)?", "let's", "let us",
  // "todo" alone is Spanish for "all": a to-do is marked with a colon or dash.
  "to[- ]?do ?[:\\-]", "action items? ?:", "note to self ?:?",
  // German
  "(?:ich|wir) (?:muss|müssen|sollte|sollten|werde|werden|will|wollen)(?: noch| auch| unbedingt| dringend| mal)*", "lass(?:t)? uns",
  "(?:nicht vergessen|vergiss nicht|vergesst nicht|denk(?:e|t)? (?:daran|dran)) ?[:,]?",
  // Spanish
  "(?:tengo|tenemos) que", "hay que", "(?:necesito|necesitamos|debo|debemos|deberíamos|debería)",
  // "voy a la playa" goes somewhere; "voy a llamar" commits (an infinitive follows), as in French.
  "(?:voy|vamos) a(?= \\p{L}+(?:ar|er|ir)(?![\\p{L}]))",
  "(?:no olvides|no te olvides|no olvidar|no hay que olvidar|recuerda|recordar|acuérdate)(?: de)? ?:?",
  // French
  "(?:je dois|nous devons|on doit|il faut|il faudrait|on devrait|nous devrions|je devrais)",
  "(?:je vais|on va|nous allons)(?= \\p{L}+(?:er|ir|re|oir)(?![\\p{L}]))",
  "(?:n'oublie pas|n'oubliez pas|ne pas oublier|penser à|pense à|pensez à)(?: de| d')? ?:?",
];
/** Commitments anywhere in a sentence ("Morgen muss ich…", "…and then I have to…"): the sentence is the to-do. */
const INSIDE = ["muss ich", "müssen wir", "sollten wir", "sollte ich", "denk daran", "nicht vergessen", "don't forget", "remember to"];
/** Openings that look like commitments but are not ("let's see", "I'll never forget"). */
const NOT = /^(?:let's (?:see|say|face it|be honest)|let us (?:see|say)|(?:i|we)(?:'ll| will) (?:never|see|tell you|say)|(?:i|we) (?:should|must|could) have|on va voir|vamos a ver|je vais (?:dire|voir))(?![\p{L}])/iu;
/** Words that may come before a commitment without being part of it. */
const OPENERS = new RegExp(
  `^(?:(?:so|and|also|ok|okay|oh|um|uh|well|then|now|plus|und|also|dann|ach|y|entonces|bueno|pues|además|et|alors|donc|bon|aussi|puis)(?![${L}])[,\\s]*)+`,
  "iu",
);
/** Words that may follow the commitment without being part of the to-do ("Il faut aussi demander…"). */
const ADVERBS = /^(?:(?:also|really|just|still|definitely|aussi|vraiment|encore|también|además|auch|noch|unbedingt)\s+)+/iu;
/** Where an unpunctuated piece was cut: no to-do ends in "and". */
const TRAILING_CONNECTORS = /(?:\s+(?:and|so|but|then|because|the|a|und|dann|aber|y|pero|et|mais|puis))+$/iu;
// One word-boundary check around all the phrases, not one per phrase: a 5,000-word note is scanned in ~2 ms.
const bounded = (sources: string[]) => `(?<![${L}'])(?:${sources.join("|")})(?![${L}])`;
const LEAD = new RegExp(`^${bounded(LEADS)}\\s*`, "iu");
const ANYWHERE = new RegExp(bounded([...LEADS, ...INSIDE]), "giu");

const normalize = (text: string) => text.replace(/[’‘]/g, "'").replace(/\s+/g, " ").trim();
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;
const LONG_SENTENCE_WORDS = 40;
const PIECE_WORDS = 14;

/** Whether a sentence commits to doing something. */
export const commitsTo = (sentence: string) => new RegExp(ANYWHERE.source, "iu").test(normalize(sentence));

/** The to-dos the sentences commit to, in order, each once. */
export function actionItemsOf(sentences: string[]): string[] {
  const items: string[] = [];
  const seen = new Set<string>();
  for (const raw of sentences) {
    const sentence = normalize(raw);
    const starts = [...sentence.matchAll(ANYWHERE)].map((m) => m.index);
    if (!starts.length) continue;
    // An unpunctuated transcript is one long "sentence": each commitment in it is a to-do of its own.
    const pieces =
      wordCount(sentence) <= LONG_SENTENCE_WORDS
        ? [sentence]
        : starts.map((start, i) => sentence.slice(start, starts[i + 1] ?? sentence.length).split(" ").slice(0, PIECE_WORDS).join(" "));
    for (const piece of pieces) {
      const item = toDo(piece);
      const key = item.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
      if (!item || seen.has(key)) continue;
      seen.add(key);
      items.push(item);
      if (items.length >= ACTION_ITEMS_MAX) return items;
    }
  }
  return items;
}

/** A sentence as a to-do: the commitment that opens it dropped (when enough is left), cleaned, capitalized. */
function toDo(sentence: string): string {
  const opened = sentence.replace(OPENERS, "");
  if (NOT.test(opened)) return "";
  const lead = LEAD.exec(opened);
  const rest = lead ? opened.slice(lead[0].length).replace(ADVERBS, "").replace(/^(?:de\s+|d')/iu, "") : "";
  let text = lead && wordCount(rest) >= 2 ? rest : opened;
  text = text.replace(/^[,:;\-–\s]+/u, "").replace(/[\s,;:.\-–…]+$/u, "").replace(TRAILING_CONNECTORS, "");
  if (text.length > ACTION_ITEM_MAX) text = `${text.slice(0, ACTION_ITEM_MAX - 1).replace(/\s+\S*$/u, "")}…`;
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}
