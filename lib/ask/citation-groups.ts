// The cited notes in order of first citation, each with its citations' numbers: the answer's
// sources as the API gives them, and as the Ask screen groups citations still streaming in.

type Cited = { n: number; note_id: string; note_title: string };
export type CitationGroup = { note_id: string; note_title: string; citations: number[] };

export function groupCitations(citations: Cited[]): CitationGroup[] {
  const notes = new Map<string, CitationGroup>();
  for (const c of citations) {
    const note = notes.get(c.note_id) ?? { note_id: c.note_id, note_title: c.note_title, citations: [] };
    note.citations.push(c.n);
    notes.set(c.note_id, note);
  }
  return [...notes.values()];
}
