// Everyday words per language. A replacement that produces only these is a change of wording, not
// a word the recognizer keeps getting wrong: it never becomes a dictionary suggestion, "Fix a word"
// offers it for one note only, and no hashtag or title is made of them alone.

export type EverydayLanguage = "en" | "de" | "es" | "fr";

const words = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter(Boolean));

const EVERYDAY: Record<EverydayLanguage, ReadonlySet<string>> = {
  en: words(`a about above after again against all also am an and any are aren't as at back be because been before being
  below between both but by can can't cannot come could couldn't day did didn't do does doesn't doing don't done down
  during each even every few first for from further get gets getting go goes going gone good got great had hadn't has
  hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm
  i've if in into is isn't it it's its itself just know last let's like little long look lot make many may me might
  more most much must mustn't my myself need never new next no nor not now of off old on once one only or other ought
  our ours ourselves out over own people really right said same say see shan't she she'd she'll she's should
  shouldn't so some something still such take than that that's the their theirs them themselves then there there's
  these they they'd they'll they're they've thing things think this those though through time to too two under
  until up us use very want was wasn't way we we'd we'll we're we've well went were weren't what what's when when's
  where where's which while who who's whom why why's will with won't work would wouldn't year yeah yes yet you you'd
  you'll you're you've your yours yourself yourselves gonna wanna gotta okay ok three four five six seven eight nine
  ten hundred thousand today tomorrow yesterday week month actually maybe pretty quite sure let got also around
  anything everything nothing someone anyone everyone able another away big bit call called came come comes could
  end feel find give given going half hand hard help home idea keep kind left less life man mean men might mind
  morning night number part place point put quick real run seem seemed set show side small sort start stuff talk tell
  thank thanks though told tonight top try trying turn whole word words world write yours`),
  de: words(`ich du er sie es wir ihr mich dich sich uns euch mir dir ihm ihn ihnen mein meine meinen meinem meiner dein
  deine sein seine ihre unser unsere euer der die das den dem des ein eine einen einem einer eines und oder aber denn
  doch weil dass wenn als ob wie wo was wer wann warum nicht kein keine keinen nichts auch noch schon nur sehr mehr
  viel viele ganz gut gern hier da dort jetzt heute morgen gestern immer nie oft mal dann so also ja nein bin bist ist
  sind seid war waren habe hast hat haben hatte hatten werde wirst wird werden wurde kann kannst können muss musst
  müssen soll sollen will wollen möchte mach machen macht gemacht geht gehen gehe ging sagen sagt gesagt sehen gibt
  mit von zu zum zur bei nach vor aus auf an in im am um für über unter durch gegen ohne bis seit zwischen man alle
  alles etwas einfach eigentlich wirklich vielleicht genau halt eben schon sonst dies diese dieser dieses jede jeder
  jedes tag woche jahr zeit mann frau leute ding sache eins zwei drei vier fünf zehn neu alt groß klein erste letzte`),
  es: words(`yo tú él ella ello nosotros nosotras vosotros ellos ellas me te se nos os le les lo la los las mi mis tu tus su
  sus nuestro nuestra un una unos unas el de del al y o u pero porque que qué como cómo cuando cuándo donde dónde quien
  quién si sí no ni también tampoco muy más menos mucho mucha muchos muchas poco todo toda todos todas nada algo
  alguien ya aún todavía aquí allí ahí ahora hoy mañana ayer siempre nunca bien mal así entonces pues es son soy eres
  somos era eran fue ser estar está están estoy estamos estaba he has ha hemos han había haber tengo tiene tienen
  tener hago hace hacer hacen voy va vamos van ir puedo puede pueden poder quiero quiere querer debo debe tengo hay
  con sin en por para sobre entre hasta desde hacia contra este esta estos estas ese esa esos esas eso esto aquel
  cosa cosas día semana año vez veces tiempo gente hombre mujer uno dos tres cuatro cinco diez nuevo nueva bueno buena
  grande pequeño primero último otro otra otros otras mismo misma cada`),
  fr: words(`je tu il elle on nous vous ils elles me te se moi toi lui leur leurs mon ma mes ton ta tes son sa ses notre nos
  votre vos le la les l un une des du de d au aux et ou mais donc or ni car que qu qui quoi dont où comme quand si
  ne pas plus moins très trop bien mal peu beaucoup tout toute tous toutes rien quelque chose quelqu aussi encore déjà
  toujours jamais souvent ici là maintenant aujourd hui demain hier alors puis ensuite oui non suis es est sommes êtes
  sont était étaient été être ai as a avons avez ont avait avoir fais fait faire font vais va allons vont aller peux
  peut pouvons peuvent pouvoir veux veut vouloir dois doit devoir faut dit dire vois voir y en avec sans dans par pour
  sur sous entre vers chez contre depuis pendant avant après ce cet cette ces ça cela ceci celui celle jour semaine an
  année fois temps gens homme femme truc un deux trois quatre cinq dix nouveau nouvelle bon bonne grand petit premier
  dernier autre autres même chaque vraiment peut-être juste voilà`),
};

const ALL: ReadonlySet<string> = new Set(Object.values(EVERYDAY).flatMap((set) => [...set]));

/** Everyday English words (the list suggestions were first built on). */
export const COMMON_WORDS = EVERYDAY.en;

const fold = (word: string) => word.normalize("NFC").toLowerCase().replace(/’/g, "'");

/**
 * Whether `word` is an everyday word in `language` (ISO 639-1; English is always included, as
 * people mix it in). With no language or one without a list, any list's word counts.
 */
export function isEverydayWord(word: string, language?: string | null): boolean {
  const key = fold(word);
  const set = language ? EVERYDAY[language.slice(0, 2).toLowerCase() as EverydayLanguage] : undefined;
  if (!language || !set) return ALL.has(key);
  return set.has(key) || EVERYDAY.en.has(key);
}

/** Whether `phrase` has words ("don't" is one) and each is `common` (or has no letter: a number). */
export function everyWordIs(phrase: string, common: (word: string) => boolean): boolean {
  const found = phrase.match(/[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}]+)*/gu) ?? [];
  return found.length > 0 && found.every((w) => common(w) || !/\p{L}/u.test(w));
}

/** Whether every word of a phrase ("my", "and the") is an everyday word: a change of wording, not a name. */
export function isEverydayPhrase(phrase: string, language?: string | null): boolean {
  return everyWordIs(phrase, (w) => isEverydayWord(w, language));
}

// Sounds a recognizer writes down that the optimizer or the user drops; never part of a misspelling.
export const FILLER_WORDS: ReadonlySet<string> = new Set(["um", "uh", "uhm", "erm", "er", "ah", "hmm", "mm", "mhm"]);

