// The closing line of a LinkedIn or Facebook post (preset option invite_replies): a question that
// asks readers to answer. Several per language, picked by a hash of the note, so posts from the
// same person do not all end alike, while the same note always gets the same line.

const LINES: Record<string, readonly string[]> = {
  en: ["What would you add?", "How do you handle this?", "Have you seen the same? I'd like to hear.", "What's your take?"],
  de: ["Was würdet ihr ergänzen?", "Wie macht ihr das?", "Kennt ihr das auch? Ich freue mich auf eure Erfahrungen.", "Wie seht ihr das?"],
  es: ["¿Qué añadirías tú?", "¿Cómo lo hacéis vosotros?", "¿Os ha pasado lo mismo? Me encantaría leeros.", "¿Qué opinas?"],
  fr: ["Qu'est-ce que vous ajouteriez ?", "Et vous, comment faites-vous ?", "Vous avez vécu la même chose ? J'aimerais vous lire.", "Qu'en pensez-vous ?"],
};

/** FNV-1a over the text's UTF-16 units: cheap, stable across runs and platforms. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The closing line for a note in `language`; null for a language without lines (no English line under a Polish post). */
export function inviteRepliesLine(text: string, language: string | null): string | null {
  const lines = LINES[language ?? "en"];
  return lines ? lines[hash(text) % lines.length] : null;
}

export const INVITE_LINES: readonly string[] = Object.values(LINES).flat();
