// Ordinary words, most of them distinct (as a long dictation is): syllables put together, a full stop
// now and then. Deterministic for a seed. Long notes for the heavy-request tests and bench.
const SYLLABLES = "ba be bi bo bu da de di do du ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo vu".split(" ");

export function ordinaryWords(chars: number, seed: number): string {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31);
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    const word = Array.from({ length: 2 + (next() % 3) }, () => SYLLABLES[next() % SYLLABLES.length]).join("") + (next() % 9 === 0 ? "." : "");
    out.push(word);
    length += word.length + 1;
  }
  return out.join(" ").slice(0, chars);
}
