// Everyday English words: a replacement that produces only these is a change of wording, not a
// word the recognizer keeps getting wrong, so it never becomes a dictionary suggestion.
export const COMMON_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren't as at back be because been before being
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
  ten hundred thousand today tomorrow yesterday week month`.split(/\s+/),
);

// Sounds a recognizer writes down that the optimizer or the user drops; never part of a misspelling.
export const FILLER_WORDS: ReadonlySet<string> = new Set(["um", "uh", "uhm", "erm", "er", "ah", "hmm", "mm", "mhm"]);
