import { z } from "zod";
import { integerText } from "@/lib/http/integer-text.ts";
import { NAME_CHARS, NAME_CHARS_MESSAGE } from "@/lib/http/names.ts";
import type { DictionaryEntry as DictionaryEntryRow } from "@/lib/db/generated/client.ts";


const phrase = (max: number) =>
  z
    .string()
    .transform((s) => s.normalize("NFC").trim())
    .pipe(
      z
        .string()
        .min(1, "must not be empty")
        .max(max, `must be at most ${max} characters`)
        .regex(NAME_CHARS, NAME_CHARS_MESSAGE),
    );

export const MISSPELLING_MAX = 100;
export const CORRECT_SPELLING_MAX = 200;

export const Misspelling = phrase(MISSPELLING_MAX).meta({
  description: "The word or phrase the recognizer gets wrong. Matched as whole words, case-insensitively.",
  example: "cooper netties",
});
export const CorrectSpelling = phrase(CORRECT_SPELLING_MAX).meta({
  description: "What to write instead, with its exact casing.",
  example: "Kubernetes",
});

export const UpsertEntryInput = z
  .strictObject({ misspelling: Misspelling, correct_spelling: CorrectSpelling })
  .meta({ id: "DictionaryEntryInput" });
export type UpsertEntryInput = z.output<typeof UpsertEntryInput>;

export const DeleteEntryQuery = z.strictObject({ misspelling: Misspelling });

export const LIST_LIMIT_MAX = 10_000;
export const ListEntriesQuery = z.strictObject({
  limit: integerText((n) => n.min(1).max(LIST_LIMIT_MAX)).optional().meta({
    description: `Page size, 1–${LIST_LIMIT_MAX}. Without it, every entry is returned in one page.`,
  }),
  cursor: z.string().max(1000).optional().meta({ description: "The next_cursor of the previous page." }),
});

export const DictionaryEntry = z
  .object({
    misspelling: z.string(),
    correct_spelling: z.string(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "DictionaryEntry" });
export type DictionaryEntry = z.output<typeof DictionaryEntry>;

export const DictionaryList = z
  .object({
    entries: z.array(DictionaryEntry).meta({ description: "Sorted by misspelling (case-folded)." }),
    next_cursor: z.string().nullable().meta({ description: "Pass as cursor for the next page; null on the last page." }),
  })
  .meta({ id: "DictionaryList" });

export const UpsertEntryResult = z
  .object({ entry: DictionaryEntry, created: z.boolean().meta({ description: "true: added (201); false: updated (200)." }) })
  .meta({ id: "DictionaryUpsertResult" });

export const ImpactQuery = z.strictObject({
  misspelling: Misspelling,
  language: z
    .string()
    .regex(/^[a-z]{2}$/, "must be a two-letter language code")
    .optional()
    .meta({ description: "The language of the note (ISO 639-1). Default: your language setting; with none, every language's list counts." }),
});

export const DictionaryImpact = z
  .object({
    misspelling: z.string().meta({ description: "As asked, trimmed." }),
    everyday_word: z.boolean().meta({
      description:
        "true when every word of it is a common word: an everyday word of the language (\"my\", \"and the\") or one of " +
        "the 10,000 most spoken English words (\"blows\", \"greatly\"; names are not). An entry would change how you say " +
        "it in every note, not fix a word the recognizer gets wrong. The app then fixes only the place tapped, unless you choose more.",
    }),
    language: z.string().nullable().meta({ description: "The language whose everyday words were used; null: all of them." }),
    notes: z.number().int().min(0).meta({ description: "How many of your notes contain it (as whole words, case-insensitively)." }),
  })
  .meta({ id: "DictionaryImpact" });
export type DictionaryImpact = z.output<typeof DictionaryImpact>;

export const DeleteEntryResult = z.object({ deleted: DictionaryEntry }).meta({ id: "DictionaryDeleteResult" });

type EntryRow = Pick<DictionaryEntryRow, "misspelling" | "correctSpelling" | "createdAt" | "updatedAt">;

export function toDictionaryEntry(row: EntryRow): DictionaryEntry {
  return {
    misspelling: row.misspelling,
    correct_spelling: row.correctSpelling,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
