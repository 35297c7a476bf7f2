import {
  DeleteEntryQuery,
  DeleteEntryResult,
  DictionaryEntry,
  DictionaryImpact,
  DictionaryList,
  ImpactQuery,
  ListEntriesQuery,
  UpsertEntryInput,
  UpsertEntryResult,
} from "@/lib/dictionary/schemas.ts";
import { defineOperation, pathsOf, type ApiArea } from "@/lib/openapi/operation.ts";

const tag = "Dictionary";

export const listDictionary = defineOperation({
  method: "get",
  path: "/api/v1/dictionary",
  id: "listDictionary",
  tag,
  summary: "List dictionary entries",
  description:
    "Returns your entries sorted by misspelling (case-folded). Without `limit`, every entry comes in one page; " +
    "with it, follow `next_cursor` until it is null.",
  scope: "dictionary:read",
  query: ListEntriesQuery,
  responses: { 200: { description: "A page of entries.", schema: DictionaryList } },
});

export const addDictionaryEntry = defineOperation({
  method: "post",
  path: "/api/v1/dictionary/add",
  id: "addDictionaryEntry",
  tag,
  summary: "Add or update an entry",
  description:
    "Adds an entry, or updates the existing one whose misspelling matches (ignoring case, extra whitespace " +
    "and Unicode normalization). Both fields are trimmed and must not contain line breaks or other control characters.",
  scope: "dictionary:write",
  body: UpsertEntryInput,
  responses: {
    201: { description: "Added: no entry had this misspelling.", schema: UpsertEntryResult },
    200: { description: "Updated: the entry with this misspelling now has the new spelling.", schema: UpsertEntryResult },
  },
  errors: {
    dictionary_limit_reached: "The dictionary is full (10,000 entries unless configured otherwise); delete some first.",
  },
});

export const deleteDictionaryEntry = defineOperation({
  method: "delete",
  path: "/api/v1/dictionary/delete",
  id: "deleteDictionaryEntry",
  tag,
  summary: "Delete an entry",
  description:
    "Deletes the entry whose misspelling matches the `misspelling` query parameter (ignoring case, extra " +
    "whitespace and Unicode normalization) and returns it.",
  scope: "dictionary:write",
  query: DeleteEntryQuery,
  responses: { 200: { description: "Deleted; the body holds the entry as it was.", schema: DeleteEntryResult } },
  errors: { not_found: "You have no entry with this misspelling." },
});

export const getDictionaryImpact = defineOperation({
  method: "get",
  path: "/api/v1/dictionary/impact",
  id: "getDictionaryImpact",
  tag,
  summary: "What an entry would change",
  description:
    "Before adding an entry: whether the misspelling is an everyday word of the language (an entry for \"my\" " +
    "would rewrite it in every later note) and how many of your notes contain it. Nothing is changed.",
  scope: "dictionary:read",
  query: ImpactQuery,
  responses: { 200: { description: "What the entry would touch.", schema: DictionaryImpact } },
});

export const dictionaryArea: ApiArea = {
  tag: {
    name: tag,
    description:
      "Your personal corrections: each entry pairs a misspelling the recognizer produces with the spelling you want. " +
      "Transcripts apply them as whole-word, case-insensitive replacements.",
  },
  schemas: [UpsertEntryInput, DictionaryEntry, DictionaryList, UpsertEntryResult, DeleteEntryResult, DictionaryImpact],
  paths: pathsOf(listDictionary, addDictionaryEntry, deleteDictionaryEntry, getDictionaryImpact),
};
